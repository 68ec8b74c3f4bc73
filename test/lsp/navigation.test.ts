/**
 * `graphspec lsp`'s find references and rename on specs written to show the hard cases, through a
 * real LSP client over the built CLI's stdio: reads found by parsing CEL and templates (not a
 * `state.ticket` inside a string literal, not `state.tickets`, not a macro's own variable), in a
 * block scalar and in a prompt file; a channel copied into a subgraph by name renamed in the child
 * spec too; the child's channel from the parent's `input` key; tools; and the renames refused.
 * Run `npm run build` first.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  type Location,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
} from "vscode-languageserver-protocol/node";
import { type LspSession, startLsp } from "./lsp-client.js";
import { applyEdits, positionOf, textIn } from "./lsp-edits.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-lsp-nav-"));
const file = (name: string) => join(dir, "graphs", name);
const uriOf = (name: string) => pathToFileURL(file(name)).href;

const PARENT = `version: 1
name: desk
state:
  ticket: { type: string, default: "" }
  tickets: { type: array, items: { type: string }, default: [] }
  summary: { type: string, default: "" }
  verdict: { type: string, default: "" }
models:
  default: { model: "openai:gpt-4o-mini" }
tools:
  lookup: { module: ../tools/lookup.mjs, schema: { type: object } }
nodes:
  intake:
    kind: set
    values:
      ticket: '\${{ state.ticket + "state.ticket" }}'
      tickets: "\${{ state.tickets.filter(state, state != '') }}"
  explain:
    kind: llm
    system: { file: prompts/explain.md }
    prompt: |
      Tickets: \${{ size(state.tickets) }}
      The ticket: \${{ state["ticket"] }}
    write: { verdict: "\${{ output.text }}" }
  fetch: { kind: tool, tool: lookup, args: { id: "\${{ state.ticket }}" }, write: summary }
  summarize:
    kind: subgraph
    graph: ./summarize.yaml
    output: { summary: "\${{ output.summary + output.ticket }}" }
edges:
  - { from: START, to: intake }
  - from: intake
    route:
      - { when: 'state.ticket == "explain" && state.ticket != ""', to: explain }
      - { default: fetch }
  - { from: explain, to: summarize }
  - { from: fetch, to: summarize }
  - { from: summarize, to: END }
`;

const CHILD = `version: 1
name: summarize
state:
  ticket: { type: string, default: "" }
  summary: { type: string, default: "" }
nodes:
  write: { kind: set, values: { summary: "Summary of \${{ state.ticket }}" } }
edges:
  - { from: START, to: write }
  - { from: write, to: END }
`;

const PROMPT = "Explain ticket ${{ state.ticket }} (of ${{ size(state.tickets) }}).\n";

let lsp: LspSession;
let version = 1;
/** The text of each open document, by file name: what the server's locations are in. */
const texts = new Map<string, string>();

/** Opens (or changes) `name` in the server with `text` and waits for its diagnostics. */
async function show(name: string, text: string) {
  const uri = uriOf(name);
  const published = lsp.nextPublished(uri);
  if (texts.has(name))
    await lsp.client.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version: ++version },
      contentChanges: [{ text }],
    });
  else
    await lsp.client.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "yaml", version: ++version, text },
    });
  texts.set(name, text);
  return published;
}

/** The position of the `nth` (0-based) `word` in `text`, `shift` characters in. */
const at = (text: string, word: string, nth = 0, shift = 0) => {
  let from = -1;
  for (let i = 0; i <= nth; i++) from = text.indexOf(word, from + 1);
  if (from < 0) throw new Error(`no ${nth}th ${word}`);
  return positionOf(text, from + shift);
};

/** Each location as `file:line:character` (1-based) with the text it covers. */
const shown = (locations: Location[] | null) =>
  (locations ?? [])
    .map((l) => {
      const name = l.uri.slice(l.uri.lastIndexOf("/") + 1);
      const text = texts.get(name) ?? readFileSync(new URL(l.uri), "utf8");
      return `${name}:${l.range.start.line + 1}:${l.range.start.character + 1} ${textIn(text, l.range)}`;
    })
    .sort();

const references = (
  name: string,
  position: { line: number; character: number },
  includeDeclaration = true,
) =>
  lsp.client
    .sendRequest(ReferencesRequest.type, {
      textDocument: { uri: uriOf(name) },
      position,
      context: { includeDeclaration },
    })
    .then(shown);

const rename = (name: string, position: { line: number; character: number }, newName: string) =>
  lsp.client.sendRequest(RenameRequest.type, {
    textDocument: { uri: uriOf(name) },
    position,
    newName,
  });

beforeAll(async () => {
  mkdirSync(join(dir, "graphs", "prompts"), { recursive: true });
  mkdirSync(join(dir, "tools"));
  writeFileSync(join(dir, "package.json"), "{}");
  writeFileSync(join(dir, "tools", "lookup.mjs"), "export default async () => 'ok';\n");
  writeFileSync(file("desk.yaml"), PARENT);
  writeFileSync(file("summarize.yaml"), CHILD);
  writeFileSync(file("prompts/explain.md"), PROMPT);
  lsp = await startLsp(dir);
  expect(lsp.init.capabilities.referencesProvider).toBe(true);
  expect(lsp.init.capabilities.renameProvider).toEqual({ prepareProvider: true });
  expect(await show("desk.yaml", PARENT)).toEqual([]);
});
afterAll(() => {
  lsp?.child.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe("graphspec lsp: find references", () => {
  it("a channel: its declaration, writes and reads parsed out of CEL, templates, block scalars and prompt files — and the child's copy of it", async () => {
    const got = await references("desk.yaml", at(PARENT, "ticket:"));
    expect(got).toEqual(
      [
        "desk.yaml:4:3 ticket", // the declaration
        "desk.yaml:16:7 ticket", // set's key
        "desk.yaml:16:26 ticket", // state.ticket, not the "state.ticket" string after it
        "desk.yaml:23:30 ticket", // state["ticket"] in a block scalar
        "desk.yaml:25:61 ticket",
        "desk.yaml:29:53 ticket", // output.ticket: the child's ticket, copied in by name
        "desk.yaml:34:24 ticket", // the route's when, twice
        "desk.yaml:34:53 ticket",
        "explain.md:1:26 ticket", // the prompt file
        "summarize.yaml:4:3 ticket", // the child's own, copied by name (no `input`)
        "summarize.yaml:7:64 ticket",
      ].sort(),
    );
    // Not `state.tickets`, not the macro's own `state` inside `filter(state, state != '')`.
    const tickets = await references("desk.yaml", at(PARENT, "tickets:"));
    expect(tickets).toEqual(
      [
        "desk.yaml:5:3 tickets",
        "desk.yaml:17:7 tickets",
        "desk.yaml:17:27 tickets",
        "desk.yaml:22:31 tickets",
        "explain.md:1:55 tickets",
      ].sort(),
    );
  });

  it("the same set from any occurrence; without the declaration when the client says so", async () => {
    const all = await references("desk.yaml", at(PARENT, "ticket:"));
    expect(await references("desk.yaml", at(PARENT, 'state["ticket"]', 0, 8))).toEqual(all);
    expect(await references("desk.yaml", at(PARENT, "state.ticket ==", 0, 7))).toEqual(all);
    expect(await references("desk.yaml", at(PARENT, "ticket:"), false)).toEqual(
      all.filter((l) => l !== "desk.yaml:4:3 ticket" && l !== "summarize.yaml:4:3 ticket"),
    );
    // Inside the string literal "state.ticket": no name at all.
    expect(await references("desk.yaml", at(PARENT, '"state.ticket"', 0, 8))).toEqual([]);
  });

  it("not a field of a macro's own variable that shadows `state`", async () => {
    const shadow = PARENT.replace(
      'state.ticket != ""\', to: explain',
      'state.tickets.exists(state, state.ticket == "")\', to: explain',
    );
    expect(shadow).not.toBe(PARENT);
    await show("desk.yaml", shadow);
    const got = await references("desk.yaml", at(shadow, "ticket:"));
    expect(got).not.toContain("desk.yaml:34:53 ticket");
    expect(got).toHaveLength(10);
    expect(await references("desk.yaml", at(shadow, "tickets.exists", 0, 2))).toContain(
      "desk.yaml:34:53 tickets",
    );
    await show("desk.yaml", PARENT);
  });

  it("a node: its declaration and every edge and route naming it", async () => {
    expect(await references("desk.yaml", at(PARENT, "to: explain", 0, 4))).toEqual(
      ["desk.yaml:18:3 explain", "desk.yaml:34:72 explain", "desk.yaml:36:13 explain"].sort(),
    );
  });

  it("a tool: its declaration and the nodes that use it", async () => {
    expect(await references("desk.yaml", at(PARENT, "tool: lookup", 0, 6))).toEqual(
      ["desk.yaml:11:3 lookup", "desk.yaml:25:30 lookup"].sort(),
    );
  });
});

describe("graphspec lsp: rename", () => {
  it("a channel, across CEL, templates, the prompt file and the subgraph it is copied into by name, as one edit that re-checks clean", async () => {
    const prepared = await lsp.client.sendRequest(PrepareRenameRequest.type, {
      textDocument: { uri: uriOf("desk.yaml") },
      position: at(PARENT, "state.ticket ==", 0, 8),
    });
    expect(prepared).toMatchObject({ placeholder: "ticket" });
    const edit = await rename("desk.yaml", at(PARENT, "ticket:"), "case_id");
    const changes = edit?.changes ?? {};
    expect(Object.keys(changes).sort()).toEqual(
      [uriOf("desk.yaml"), uriOf("prompts/explain.md"), uriOf("summarize.yaml")].sort(),
    );
    const parent = applyEdits(PARENT, changes[uriOf("desk.yaml")]!);
    expect(parent).toContain(`'\${{ state.case_id + "state.ticket" }}'`);
    expect(parent).toContain("state.tickets.filter(state, state != '')");
    expect(parent).toContain('state["case_id"]');
    expect(parent).toContain("output.summary + output.case_id");
    const child = applyEdits(CHILD, changes[uriOf("summarize.yaml")]!);
    expect(child).toContain("case_id: { type: string");
    const prompt = applyEdits(PROMPT, changes[uriOf("prompts/explain.md")]!);
    expect(prompt).toBe("Explain ticket ${{ state.case_id }} (of ${{ size(state.tickets) }}).\n");
    // Applied as an editor would (the closed files saved), the checker finds nothing.
    writeFileSync(file("summarize.yaml"), child);
    writeFileSync(file("prompts/explain.md"), prompt);
    try {
      expect(await show("desk.yaml", parent)).toEqual([]);
      expect(await show("summarize.yaml", child)).toEqual([]);
    } finally {
      writeFileSync(file("summarize.yaml"), CHILD);
      writeFileSync(file("prompts/explain.md"), PROMPT);
      await show("summarize.yaml", CHILD);
      await show("desk.yaml", PARENT);
    }
  });

  it("from the child: its parents' names for the channel, and the parent's own where it copies it by name", async () => {
    await show("summarize.yaml", CHILD);
    const fromChild = await lsp.client.sendRequest(RenameRequest.type, {
      textDocument: { uri: uriOf("summarize.yaml") },
      position: at(CHILD, "state.ticket", 0, 6),
      newName: "case_id",
    });
    const fromParent = await rename("desk.yaml", at(PARENT, "ticket:"), "case_id");
    const edits = (e: typeof fromChild) =>
      Object.entries(e?.changes ?? {})
        .flatMap(([uri, list]) =>
          list.map((x) => `${uri}@${x.range.start.line}:${x.range.start.character}`),
        )
        .sort();
    expect(edits(fromChild)).toHaveLength(11);
    expect(edits(fromChild)).toEqual(edits(fromParent));
  });

  it("a node, in its declaration, routes and edges", async () => {
    const edit = await rename("desk.yaml", at(PARENT, "explain:"), "explain_it");
    const renamed = applyEdits(PARENT, edit?.changes?.[uriOf("desk.yaml")] ?? []);
    expect(renamed).toContain("  explain_it:\n    kind: llm");
    expect(renamed).toContain("to: explain_it }");
    expect(renamed).toContain("from: explain_it, to: summarize");
    // The node's prompt file keeps its name: it is not the node's.
    expect(renamed).toContain("prompts/explain.md");
    expect(await show("desk.yaml", renamed)).toEqual([]);
    await show("desk.yaml", PARENT);
  });

  it("refuses an invalid, reserved or taken name, a tool, and `messages` while nodes use it by that name", async () => {
    const channel = at(PARENT, "summary:");
    const node = at(PARENT, "fetch:");
    const refused = (p: Promise<unknown>) =>
      p.then(
        () => "accepted",
        (e: Error) => e.message,
      );
    expect(await refused(rename("desk.yaml", channel, "the summary"))).toMatch(
      /not a channel name/,
    );
    expect(await refused(rename("desk.yaml", channel, "in"))).toMatch(/reserved word of CEL/);
    expect(await refused(rename("desk.yaml", channel, "verdict"))).toMatch(
      /`verdict` is already a state channel of .*desk\.yaml/,
    );
    expect(await refused(rename("desk.yaml", channel, "intake"))).toMatch(/already a node/);
    expect(await refused(rename("desk.yaml", node, "End"))).toMatch(/reads like the keyword `END`/);
    expect(await refused(rename("desk.yaml", node, "__fetch"))).toMatch(/belong to LangGraph/);
    expect(await refused(rename("desk.yaml", node, "fetch:it"))).toMatch(/not a node name/);
    // The child has a `summary` of its own: `ticket` cannot become it, though the parent's is free.
    expect(await refused(rename("desk.yaml", at(PARENT, "ticket:"), "summary"))).toMatch(
      /already a state channel/,
    );
    expect(
      await refused(
        lsp.client.sendRequest(PrepareRenameRequest.type, {
          textDocument: { uri: uriOf("desk.yaml") },
          position: at(PARENT, "tool: lookup", 0, 6),
        }),
      ),
    ).toMatch(/tool `lookup`/);

    const chat = PARENT.replace(
      "  summary: {",
      "  messages: { type: messages }\n  summary: {",
    ).replace("  fetch:", "  chat: { kind: llm, prompt: hi }\n  fetch:");
    await show("desk.yaml", chat);
    const messages = at(chat, "messages:");
    expect(
      await refused(
        lsp.client.sendRequest(PrepareRenameRequest.type, {
          textDocument: { uri: uriOf("desk.yaml") },
          position: messages,
        }),
      ),
    ).toMatch(/`messages` is read and written by that name by node `chat`/);
    expect(await refused(rename("desk.yaml", at(chat, "verdict:"), "messages"))).toMatch(
      /already a state channel/,
    );
    await show("desk.yaml", PARENT);
  });

  it("says so when the text does not parse", async () => {
    const broken = `${PARENT}  - { from: [\n`;
    await show("desk.yaml", broken);
    const message = await rename("desk.yaml", at(broken, "ticket:"), "case_id").then(
      () => "accepted",
      (e: Error) => e.message,
    );
    expect(message).toMatch(/does not parse/);
    await show("desk.yaml", PARENT);
  });

  it("from the parent's `input` key, the child's channel", async () => {
    const mapped = PARENT.replace(
      "    output: { summary:",
      '    input: { ticket: "${{ state.verdict }}" }\n    output: { summary:',
    );
    await show("desk.yaml", mapped);
    const got = await references("desk.yaml", at(mapped, "input: { ticket", 0, 9));
    expect(got).toEqual(
      [
        "desk.yaml:29:14 ticket",
        "desk.yaml:30:53 ticket",
        "summarize.yaml:4:3 ticket",
        "summarize.yaml:7:64 ticket",
      ].sort(),
    );
    await show("desk.yaml", PARENT);
  });
});
