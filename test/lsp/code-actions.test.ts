/**
 * `graphspec lsp`'s quick fixes through a real LSP client over the built CLI's stdio: each
 * finding's codeAction is requested at its range, its edit applied to the text and sent back as
 * a change, and the next publishDiagnostics must no longer have the finding — a did-you-mean name
 * (edges, CEL, the schema's keys and kinds, quoted or not, YAML and JSON), a route's missing
 * `default`, an undeclared channel declared with the type its write gives it.
 * Run `npm run build` first.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CodeAction,
  CodeActionRequest,
  type Diagnostic,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
} from "vscode-languageserver-protocol/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { type LspSession, startLsp } from "./lsp-client.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");
const INVALID = join(import.meta.dirname, "..", "fixtures", "invalid");
const dir = mkdtempSync(join(tmpdir(), "graphspec-lsp-actions-"));
let lsp: LspSession;

beforeAll(async () => {
  mkdirSync(join(dir, "graphs"));
  writeFileSync(join(dir, "package.json"), "{}");
  lsp = await startLsp(dir);
});
afterAll(() => {
  lsp?.child.kill();
  rmSync(dir, { recursive: true, force: true });
});

const text = (d: Diagnostic) => (typeof d.message === "string" ? d.message : d.message.value);

/** An open document, its text as the editor holds it, and the findings last published for it. */
class Editor {
  version = 1;
  diagnostics: Diagnostic[] = [];
  constructor(
    readonly uri: string,
    public text: string,
  ) {}

  /** Opens `text` as graphs/`name` of the test's project (written there), or as the file at `at`. */
  static async open(name: string, text: string, at?: string): Promise<Editor> {
    const file = at ?? join(dir, "graphs", name);
    if (!at) writeFileSync(file, text);
    const editor = new Editor(pathToFileURL(file).href, text);
    const got = lsp.nextPublished(editor.uri);
    await lsp.client.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: {
        uri: editor.uri,
        languageId: name.endsWith(".json") ? "json" : "yaml",
        version: 1,
        text,
      },
    });
    editor.diagnostics = await got;
    return editor;
  }

  finding(rule: string, message: RegExp): Diagnostic {
    const found = this.diagnostics.find((d) => d.code === rule && message.test(text(d)));
    if (!found)
      throw new Error(
        `no ${rule} finding matching ${message}: ${JSON.stringify(this.diagnostics, null, 1)}`,
      );
    return found;
  }

  /** The quick fixes offered at a finding's range. */
  async actions(d: Diagnostic): Promise<CodeAction[]> {
    const got = await lsp.client.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: this.uri },
      range: d.range,
      context: { diagnostics: [d] },
    });
    return (got ?? []) as CodeAction[];
  }

  /** Applies a quick fix's edit as an editor does, sends the new text, waits for the re-check. */
  async apply(action: CodeAction): Promise<void> {
    const edits = action.edit?.changes?.[this.uri];
    expect(edits?.length).toBeGreaterThan(0);
    const doc = TextDocument.create(this.uri, "yaml", this.version, this.text);
    this.text = TextDocument.applyEdits(doc, edits!);
    const got = lsp.nextPublished(this.uri);
    await lsp.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: this.uri, version: ++this.version },
      contentChanges: [{ text: this.text }],
    });
    this.diagnostics = await got;
  }

  /** Finds the finding, takes the one quick fix titled like `title`, applies it; the finding is gone. */
  async fix(rule: string, message: RegExp, title: RegExp): Promise<void> {
    const d = this.finding(rule, message);
    const offered = await this.actions(d);
    const action = offered.find((a) => title.test(a.title));
    expect(action, `offered: ${offered.map((a) => a.title).join(", ")}`).toBeDefined();
    expect(action!.diagnostics?.[0]?.code).toBe(rule);
    await this.apply(action!);
    expect(this.diagnostics.filter((x) => x.code === rule && message.test(text(x)))).toEqual([]);
  }
}

/** What `graphspec validate --format json` finds in `text` (written to the editor's file). */
function validated(editor: Editor): { rule: string; message: string; hint?: string }[] {
  const file = new URL(editor.uri).pathname;
  writeFileSync(file, editor.text);
  const run = spawnSync(process.execPath, [BIN, "validate", file, "--format", "json"], {
    encoding: "utf8",
    cwd: dir,
  });
  return JSON.parse(run.stdout);
}

const TYPOS = `version: 1
name: typos
state:
  priority: { type: string, default: low }
  answer_text: { type: string, default: "" }
nodes:
  classify: { kind: set, values: { prioirty: high } }
  answer: { kind: set, values: { answer_text: "\${{ state.prioirty }}" } }
  notify:
    kind: sett
    values: { answer_text: sent }
    descripton: tell them
edges:
  - { from: START, to: clasify }
  - { from: classify, to: "answr" }
  - { from: answer, to: 'notfy' }
  - { from: notify, to: END }
`;

describe("graphspec lsp: did-you-mean quick fixes", () => {
  it("each hint's name replaces the misspelt one, the quotes kept, and the finding goes", async () => {
    const editor = await Editor.open("typos.yaml", TYPOS);
    // The replacement is the editor's; the CLI's JSON says the hint as it always has.
    const printed = validated(editor);
    expect(printed.find((d) => /`clasify`/.test(d.message))).toMatchObject({
      hint: "did you mean `classify`?",
    });
    expect(printed.filter((d) => "replacement" in d)).toEqual([]);
    await editor.fix("unknown-node", /`clasify`/, /Change to `classify`/);
    await editor.fix("unknown-node", /`answr`/, /Change to `answer`/);
    await editor.fix("unknown-node", /`notfy`/, /Change to `notify`/);
    expect(editor.text).toContain(`to: "answer" }`);
    expect(editor.text).toContain(`to: 'notify' }`);
    await editor.fix("unknown-state-key", /writes `prioirty`/, /Change to `priority`/);
    await editor.fix("unknown-state-key", /^`prioirty`/, /Change to `priority`/);
    expect(editor.text).toContain("${{ state.priority }}");
    await editor.fix("schema", /"sett"/, /Change to `set`/);
    await editor.fix("schema", /`descripton`/, /Change to `description`/);
    expect(editor.diagnostics).toEqual([]);
    expect(validated(editor)).toEqual([]);
  });

  it("offers nothing where no finding stands, and no name where the hint suggests none", async () => {
    const editor = await Editor.open(
      "clean.yaml",
      TYPOS.replace("to: clasify", "to: zzzzzz").replace("prioirty: high", "priority: high"),
    );
    const far = await editor.actions({
      ...editor.finding("unknown-node", /zzzzzz/),
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
    });
    expect(far).toEqual([]);
    expect(await editor.actions(editor.finding("unknown-node", /zzzzzz/))).toEqual([]);
  });

  it("in a JSON spec the replacement stays a JSON string", async () => {
    const spec = {
      version: 1,
      name: "typos-json",
      state: { priority: { type: "string", default: "low" } },
      nodes: { classify: { kind: "set", values: { priority: "high" } } },
      edges: [
        { from: "START", to: "clasify" },
        { from: "classify", to: "END" },
      ],
    };
    const editor = await Editor.open("typos.json", JSON.stringify(spec, null, 2));
    await editor.fix("unknown-node", /`clasify`/, /Change to `classify`/);
    expect(JSON.parse(editor.text).edges[0].to).toBe("classify");
    expect(editor.diagnostics).toEqual([]);
  });
});

const ROUTES = `version: 1
name: routes
state:
  priority: { type: string, default: low }
nodes:
  classify: { kind: set, values: { priority: high } }
  escalate: { kind: set, values: { priority: urgent } }
  answer: { kind: set, values: { priority: low } }
edges:
  - { from: START, to: classify }
  - from: classify
    route:
      - { when: 'state.priority == "urgent"', to: escalate }
      - when: 'state.priority == "low"'
        to: answer
  - from: escalate
    route: [{ when: 'state.priority == "urgent"', to: answer }]
  - { from: answer, to: END }
`;

describe("graphspec lsp: a route's missing default", () => {
  it("adds `- { default: END }` as the last case, in block and in flow style", async () => {
    const editor = await Editor.open("routes.yaml", ROUTES);
    expect(editor.diagnostics.filter((d) => d.code === "route-no-default")).toHaveLength(2);
    await editor.fix("route-no-default", /from `classify`/, /default: END/);
    expect(editor.text).toContain(
      "        to: answer\n      - { default: END }\n  - from: escalate",
    );
    await editor.fix("route-no-default", /from `escalate`/, /default: END/);
    expect(editor.text).toContain("to: answer }, { default: END }]");
    expect(editor.diagnostics).toEqual([]);
    expect(validated(editor)).toEqual([]);
  });
});

describe("graphspec lsp: a route's missing default, in JSON", () => {
  it('adds `{ "default": "END" }` after the last case', async () => {
    const spec = {
      version: 1,
      name: "routes-json",
      state: { priority: { type: "string", default: "low" } },
      nodes: { classify: { kind: "set", values: { priority: "high" } } },
      edges: [
        { from: "START", to: "classify" },
        { from: "classify", route: [{ when: 'state.priority == "high"', to: "END" }] },
      ],
    };
    const editor = await Editor.open("routes.json", JSON.stringify(spec, null, 2));
    await editor.fix("route-no-default", /from `classify`/, /default: END/);
    expect(JSON.parse(editor.text).edges[1].route.at(-1)).toEqual({ default: "END" });
    expect(editor.diagnostics).toEqual([]);
  });
});

const CHANNELS = `version: 1
name: channels
state:
  priority: { type: string, default: low }
nodes:
  count: { kind: set, values: { attempts: 3, ratio: 0.5, flagged: true, note: "seen \${{ state.priority }}" } }
  copy: { kind: set, values: { level: "\${{ state.priority }}" } }
  reply: { kind: llm, prompt: "hi", write: reply_text }
models:
  default: { model: "scripted:x" }
edges:
  - { from: START, to: count }
  - { from: count, to: copy }
  - { from: copy, to: reply }
  - { from: reply, to: END }
`;

describe("graphspec lsp: a missing channel", () => {
  it("declares it under `state` with the type its write gives it", async () => {
    const editor = await Editor.open("channels.yaml", CHANNELS);
    for (const [name, type] of [
      ["attempts", "integer"],
      ["ratio", "number"],
      ["flagged", "boolean"],
      ["note", "string"],
      ["level", "string"],
      ["reply_text", "string"],
    ] as const) {
      await editor.fix("unknown-state-key", new RegExp(`\`${name}\``), /Declare/);
      expect(editor.text).toContain(`\n  ${name}: { type: ${type} }\n`);
    }
    expect(editor.diagnostics).toEqual([]);
    expect(validated(editor)).toEqual([]);
  });

  it("adds `messages` for a node that needs it, in a flow-style `state`", async () => {
    const editor = await Editor.open(
      "no-state.yaml",
      `version: 1
name: no-state
state: { topic: { type: string, default: "" } }
models:
  default: { model: "scripted:x" }
nodes:
  chat: { kind: llm, prompt: "hi" }
edges:
  - { from: START, to: chat }
  - { from: chat, to: END }
`,
    );
    await editor.fix("unknown-state-key", /nowhere to write/, /Declare `messages`/);
    expect(editor.text).toContain(
      'state: { topic: { type: string, default: "" }, messages: { type: messages } }\n',
    );
    expect(editor.diagnostics).toEqual([]);
  });

  it("one fix for every finding of one undeclared channel, one per misspelling", async () => {
    const editor = await Editor.open(
      "many.yaml",
      CHANNELS.replace(
        'note: "seen ${{ state.priority }}"',
        'note: "x", notes: "${{ state.note }}"',
      ),
    );
    const everything = {
      ...editor.diagnostics[0]!,
      range: { start: { line: 0, character: 0 }, end: { line: 99, character: 0 } },
    };
    const offered = await editor.actions(everything);
    const declareNote = offered.filter((a) => a.title.startsWith("Declare `note`"));
    expect(declareNote).toHaveLength(1);
    expect(declareNote[0]!.diagnostics?.map((d) => d.code)).toEqual([
      "unknown-state-key",
      "unknown-state-key",
    ]);
    expect(new Set(offered.map((a) => a.title)).size).toBe(offered.length);
  });

  it("in a JSON spec, as a JSON member", async () => {
    const spec = {
      version: 1,
      name: "channels-json",
      state: { priority: { type: "string", default: "low" } },
      nodes: { count: { kind: "set", values: { attempts: 3 } } },
      edges: [
        { from: "START", to: "count" },
        { from: "count", to: "END" },
      ],
    };
    const editor = await Editor.open("channels.json", JSON.stringify(spec, null, 2));
    await editor.fix("unknown-state-key", /`attempts`/, /Declare `attempts` in state \(integer\)/);
    expect(JSON.parse(editor.text).state.attempts).toEqual({ type: "integer" });
    expect(editor.diagnostics).toEqual([]);
  });
});

/** The invalid fixtures whose expected findings have a did-you-mean hint (checked without modules). */
const withSuggestions = readdirSync(INVALID, { recursive: true, encoding: "utf8" })
  .filter((f) => /\.(ya?ml|json)$/.test(f) && !f.includes("/modules/"))
  .filter((f) => {
    try {
      return readFileSync(join(INVALID, f.replace(/\.\w+$/, ".expected")), "utf8").includes(
        "did you mean",
      );
    } catch {
      return false;
    }
  })
  .sort();

describe("graphspec lsp: every did-you-mean of test/fixtures/invalid is a quick fix", () => {
  it("finds the fixtures", () => {
    expect(withSuggestions.length).toBeGreaterThan(20);
  });

  it.each(withSuggestions)("%s: each suggestion applied makes its finding go", async (fixture) => {
    const path = join(INVALID, fixture);
    const editor = await Editor.open(fixture, readFileSync(path, "utf8"), path);
    // "did you mean `export: weather`?" asks for a key beside the module, not a replacement.
    const suggesting = () =>
      editor.diagnostics.filter((d) => /did you mean `(?!export: )[^`]+`\?/.test(text(d)));
    expect(suggesting().length).toBeGreaterThan(0);
    for (let left = suggesting(); left.length; left = suggesting()) {
      const d = left[0]!;
      const meant = /did you mean `([^`]+)`\?/.exec(text(d))![1]!;
      const fix = (await editor.actions(d)).find((a) => a.title.startsWith("Change to"));
      expect(fix, `${text(d)}: no quick fix`).toBeDefined();
      const edit = fix!.edit!.changes![editor.uri]![0]!;
      expect(edit.range).toEqual(d.range);
      // The suggested name, quoted as the text it replaces was (a provider keeps its model name).
      expect(edit.newText.replace(/^(["'])(.*)\1$/, "$2")).toMatch(
        new RegExp(`^${meant.replace(/[$.*+?()[\]{}|^\\/]/g, "\\$&")}(:|$)`),
      );
      await editor.apply(fix!);
      expect(
        editor.diagnostics.filter((x) => x.code === d.code && text(x) === text(d)),
        `${text(d)} is still there after ${edit.newText}`,
      ).toEqual([]);
    }
  });
});
