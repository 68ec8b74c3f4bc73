/**
 * Prompts in their own files (`system: { file: prompts/triage.md }`), through the surfaces users
 * meet them on: `graphspec validate` (findings at the prompt file's own line and column, in every
 * output format), `compile()` from the package entry running the real OpenAI client against the
 * provider simulator (the system prompt the model received), and `graphspec dev`'s reloads
 * (createDevExecutor). Files outside the project, missing or too large are findings, never read.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  CompileError,
  compile,
  createDevExecutor,
  LOAD_LIMITS,
  loadSpec,
  parseSpec,
  platformGraph,
  validate,
} from "../src/index.js";
import { recorder, until } from "./dev/project.js";
import { graphspecIn, scratchDir } from "./support/cli.js";
import { type OpenAIStub, startOpenAIStub } from "./support/openai-stub.js";

const spec = (model: string, node = "    system: { file: prompts/triage.md }") => `version: 1
name: triage
state:
  messages: { type: messages }
  ticket: { type: string }
models:
  default: ${model}
nodes:
  triage:
    kind: llm
${node}
edges:
  - { from: START, to: triage }
  - { from: triage, to: END }
`;
const SCRIPTED = '{ model: "scripted:triage" }';

function projectWith(files: Record<string, string>): string {
  const root = scratchDir("prompts");
  for (const [rel, text] of Object.entries({ "package.json": "{}", ...files })) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

describe("graphspec validate: a prompt file's expressions", () => {
  const root = projectWith({
    "graphs/triage.yaml": spec(SCRIPTED),
    "graphs/prompts/triage.md":
      "You sort support tickets.\n\nThe ticket: ${{ state.tickt }}\nUrgent: ${{ state.ticket + }}\n",
  });
  const graphspec = graphspecIn(root);

  it("are checked as inline ones, each finding at the prompt file's line and column", () => {
    const r = graphspec("validate", "graphs/triage.yaml", "--format", "json");
    expect(r.status).toBe(1);
    const found = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(found).toEqual([
      expect.objectContaining({
        file: "graphs/prompts/triage.md",
        line: 3,
        column: 23,
        endColumn: 28,
        rule: "unknown-state-key",
        hint: "did you mean `ticket`?",
      }),
      expect.objectContaining({
        file: "graphs/prompts/triage.md",
        line: 4,
        rule: "expression-syntax",
      }),
    ]);
  });

  it("quotes the prompt file's line under the finding", () => {
    const r = graphspec("validate", "graphs/triage.yaml");
    expect(r.stdout).toContain("graphs/prompts/triage.md:3:23: error: `tickt` is not a state");
    expect(r.stdout).toContain("3 | The ticket: ${{ state.tickt }}");
  });

  it("names the prompt file in GitHub annotations and SARIF", () => {
    const github = graphspec("validate", "graphs/triage.yaml", "--format", "github");
    expect(github.stdout).toContain(
      "::error file=graphs/prompts/triage.md,line=3,col=23,endLine=3,endColumn=28,title=graphspec unknown-state-key::",
    );
    const sarif = JSON.parse(
      graphspec("validate", "graphs/triage.yaml", "--format", "sarif").stdout,
    );
    const locations = sarif.runs[0].results.map(
      (r: { locations: { physicalLocation: unknown }[] }) => r.locations[0]!.physicalLocation,
    );
    expect(locations[0]).toMatchObject({
      artifactLocation: { uri: "graphs/prompts/triage.md" },
      region: { startLine: 3, startColumn: 23 },
    });
  });

  it("beside a catalog, each finding stays in its own file", () => {
    const root = projectWith({
      "catalog.yaml": "tools:\n  lookup: { module: ./missing.ts }\n",
      "graphs/triage.yaml": spec(SCRIPTED).replace("models:", "catalog: ../catalog.yaml\nmodels:"),
      "graphs/prompts/triage.md": "Ticket:\n  ${{ state.tickt }}\n",
    });
    const r = graphspecIn(root)("validate", "graphs/triage.yaml", "--format", "json");
    const found = (JSON.parse(r.stdout) as Record<string, unknown>[]).map(
      (d) => `${d.file}:${d.line}:${d.column} ${d.rule}`,
    );
    expect(found).toEqual([
      "catalog.yaml:2:21 unknown-module",
      "graphs/prompts/triage.md:2:13 unknown-state-key",
    ]);
  });

  it("a prompt file two specs share: a finding there is said once", () => {
    const root = projectWith({
      "graphs/triage.yaml": spec(SCRIPTED),
      "graphs/again.yaml": spec(SCRIPTED).replace("name: triage", "name: again"),
      "graphs/prompts/triage.md": "Ticket: ${{ state.tickt }}\n",
    });
    const r = graphspecIn(root)("validate", "graphs/", "--format", "json");
    const found = (JSON.parse(r.stdout) as Record<string, unknown>[]).map(
      (d) => `${d.file}:${d.line}:${d.column} ${d.rule}`,
    );
    expect(found).toEqual(["graphs/prompts/triage.md:1:19 unknown-state-key"]);
  });

  it("a fixed prompt file validates", () => {
    const fixed = projectWith({
      "graphs/triage.yaml": spec(SCRIPTED),
      "graphs/prompts/triage.md": "You sort support tickets.\n\nThe ticket: ${{ state.ticket }}\n",
    });
    const r = graphspecIn(fixed)("validate", "graphs/triage.yaml");
    expect(r.stderr + r.stdout).toContain("✔");
    expect(r.status).toBe(0);
  });
});

describe("graphspec validate: a prompt file it cannot use", () => {
  const findings = (root: string) => {
    const r = graphspecIn(root)("validate", "graphs/triage.yaml", "--format", "json");
    expect(r.status).toBe(1);
    return JSON.parse(r.stdout) as Record<string, unknown>[];
  };

  it("missing: at the spec's `file:` value, with a hint", () => {
    const root = projectWith({ "graphs/triage.yaml": spec(SCRIPTED) });
    expect(findings(root)).toEqual([
      {
        file: "graphs/triage.yaml",
        line: 11,
        column: 21,
        endLine: 11,
        endColumn: 38,
        rule: "prompt-file",
        severity: "error",
        message: "prompt file `prompts/triage.md` does not exist",
        hint: "create it, or fix the path: it is relative to the spec's folder",
      },
    ]);
  });

  it("outside the project, by `..` or through a symbolic link: path-escape, not read", () => {
    const root = projectWith({
      "graphs/triage.yaml": spec(SCRIPTED, "    system: { file: ../../secret.md }"),
    });
    writeFileSync(join(root, "..", "secret.md"), "TOKEN=abc\n");
    const [outside] = findings(root);
    expect(outside).toMatchObject({ rule: "path-escape", file: "graphs/triage.yaml", line: 11 });
    expect(JSON.stringify(outside)).not.toContain("TOKEN");

    const linked = projectWith({ "graphs/triage.yaml": spec(SCRIPTED) });
    const elsewhere = scratchDir("prompts-outside");
    writeFileSync(join(elsewhere, "secret.md"), "TOKEN=abc ${{ state.nope }}\n");
    mkdirSync(join(linked, "graphs", "prompts"));
    symlinkSync(join(elsewhere, "secret.md"), join(linked, "graphs", "prompts", "triage.md"));
    const [link] = findings(linked);
    expect(link).toMatchObject({
      rule: "path-escape",
      message: expect.stringContaining("symbolic link to a file outside the project root"),
    });
  });

  it("more prompt text in all than a spec may take (one file named by many nodes): resource-limit at the first past it", () => {
    const nodes = Array.from(
      { length: 20 },
      (_, i) => `  n${i}: { kind: llm, system: { file: prompts/big.md } }`,
    ).join("\n");
    const edges = Array.from({ length: 20 }, (_, i) =>
      i === 0 ? "  - { from: START, to: n0 }" : `  - { from: n${i - 1}, to: n${i} }`,
    ).join("\n");
    const root = projectWith({
      "graphs/triage.yaml": `version: 1\nname: triage\nstate:\n  messages: { type: messages }\nmodels:\n  default: ${SCRIPTED}\nnodes:\n${nodes}\nedges:\n${edges}\n  - { from: n19, to: END }\n`,
      "graphs/prompts/big.md": "x".repeat(LOAD_LIMITS.maxPromptBytes),
    });
    const over = Math.floor(LOAD_LIMITS.maxPromptTotal / LOAD_LIMITS.maxPromptBytes);
    expect(findings(root)).toEqual(
      Array.from({ length: 20 - over }, (_, i) =>
        expect.objectContaining({
          rule: "resource-limit",
          line: 8 + over + i,
          message: expect.stringContaining(
            `a spec may take at most ${LOAD_LIMITS.maxPromptTotal} (counted for each prompt naming a file)`,
          ),
        }),
      ),
    );
  });

  it("not UTF-8 text: encoding, not read", () => {
    const root = projectWith({ "graphs/triage.yaml": spec(SCRIPTED) });
    mkdirSync(join(root, "graphs", "prompts"));
    writeFileSync(
      join(root, "graphs", "prompts", "triage.md"),
      Buffer.from([0x54, 0x69, 0xff, 0x0a]),
    );
    expect(findings(root)).toEqual([
      expect.objectContaining({
        rule: "encoding",
        line: 11,
        message:
          "prompt file `prompts/triage.md` is not text: the file is not valid UTF-8 (byte 0xff at offset 2)",
        hint: "save it as UTF-8 text",
      }),
    ]);
  });

  it("larger than the bound: resource-limit, not read", () => {
    const root = projectWith({
      "graphs/triage.yaml": spec(SCRIPTED),
      "graphs/prompts/triage.md": "x".repeat(LOAD_LIMITS.maxPromptBytes + 1),
    });
    expect(findings(root)).toEqual([
      expect.objectContaining({
        rule: "resource-limit",
        line: 11,
        message: `prompt file \`prompts/triage.md\` is ${LOAD_LIMITS.maxPromptBytes + 1} bytes; a prompt file may have at most ${LOAD_LIMITS.maxPromptBytes}`,
      }),
    ]);
  });
});

describe("validate(): a prompt of the wrong shape", () => {
  it("one finding per mistake, saying the two forms a prompt takes", async () => {
    const root = projectWith({
      "graphs/triage.yaml": spec(SCRIPTED).replace(
        "    system: { file: prompts/triage.md }",
        "    system: { file: prompts/triage.md, cache: true }\n    prompt: { file: 3 }",
      ),
      "graphs/prompts/triage.md": "Triage.\n",
    });
    const found = await validate(await loadSpec(join(root, "graphs", "triage.yaml")));
    expect(found.map((d) => [d.line, d.rule, d.message])).toEqual([
      [
        11,
        "schema",
        "unknown key `cache` in `system`: a prompt in its own file is `{ file: PATH }`",
      ],
      [12, "schema", "`prompt: { file }` must be a path (text), not number"],
    ]);
    const inline = parseSpec(spec(SCRIPTED, "    system: [You triage tickets.]"));
    expect((await validate(inline)).map((d) => d.message)).toEqual([
      "`system` must be a template (text) or `{ file: PATH }`, not a list",
    ]);
  });
});

describe("compile(): a prompt file's text is the template the model gets", () => {
  let stub: OpenAIStub | undefined;
  afterAll(() => stub?.close());

  it("sends the file's text, its expressions evaluated, as the system prompt", async () => {
    stub = await startOpenAIStub(["Priority: low."]);
    const model = `{ model: "openai:gpt-4o-mini", base_url: "${stub.url}", api_key: test }`;
    const root = projectWith({
      "graphs/triage.yaml": spec(model),
      "graphs/prompts/triage.md": "You sort support tickets.\nThe ticket: ${{ state.ticket }}\n",
    });
    const graph = await compile(join(root, "graphs", "triage.yaml"));
    const out = await graph.invoke({ ticket: "printer on fire", messages: [] });
    expect(stub.requests[0]!.messages).toEqual([
      { role: "system", content: "You sort support tickets.\nThe ticket: printer on fire\n" },
    ]);
    expect(out.messages.at(-1)?.content).toBe("Priority: low.");
  });

  it("an expression of the prompt file that fails in a run is named at its line and column there", async () => {
    const root = projectWith({
      "graphs/triage.yaml": spec(SCRIPTED).replace(
        "  ticket: { type: string }",
        "  ticket: { type: string }\n  notes: { type: array, items: { type: string }, default: [] }",
      ),
      "graphs/prompts/triage.md": "You sort tickets.\nFirst note: ${{ state.notes[3] }}\n",
    });
    const graph = await compile(join(root, "graphs", "triage.yaml"), {
      scripts: { triage: ["ok"] },
    });
    const err = await graph.invoke({ messages: [] }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(
      /node `triage`: the expression at \S*graphs\/prompts\/triage\.md:2:17 failed/,
    );
  });

  it("the graph `graphspec export` serves (platformGraph) reads its prompt file from the project", async () => {
    const served = await startOpenAIStub(["Served."]);
    try {
      const model = `{ model: "openai:gpt-4o-mini", base_url: "${served.url}", api_key: test }`;
      const root = projectWith({
        "graphs/triage.yaml": spec(model),
        "graphs/prompts/triage.md": "Served prompt for ${{ state.ticket }}.",
      });
      const factory = await platformGraph(pathToFileURL(join(root, "graphs", "triage.yaml")));
      await factory().invoke({ ticket: "t-1", messages: [] });
      expect(served.requests[0]!.messages).toEqual([
        { role: "system", content: "Served prompt for t-1." },
      ]);
    } finally {
      await served.close();
    }
  });

  it("refuses a spec given as text that names a prompt file: there is no folder to read it from", async () => {
    const doc = parseSpec(spec(SCRIPTED));
    const err = await compile(doc).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CompileError);
    expect((err as CompileError).message).toContain(
      "prompt file `prompts/triage.md` was not read: this spec was given as text, so it has no folder to read it from [prompt-file]",
    );
  });
});

describe("graphspec dev: prompt files are watched", () => {
  let stub: OpenAIStub | undefined;
  afterAll(() => stub?.close());

  it("editing the prompt file reloads the graph; a broken, deleted or not-yet-created one is refused, the last good version kept, and the fix reloads", async () => {
    stub = await startOpenAIStub(["one", "two", "three", "four", "five"]);
    const model = `{ model: "openai:gpt-4o-mini", base_url: "${stub.url}", api_key: test }`;
    const root = projectWith({
      "graphs/triage.yaml": spec(model),
      "graphs/prompts/triage.md": "Version one.\n",
    });
    const prompt = join(root, "graphs", "prompts", "triage.md");
    const r = recorder();
    const dev = await createDevExecutor({
      dir: join(root, "graphs"),
      checkpointer: "memory",
      onReload: r.onReload,
    });
    try {
      await dev.executor.run("triage", { input: { ticket: "t", messages: [] } });
      expect(stub.requests.at(-1)!.messages).toEqual([
        { role: "system", content: "Version one.\n" },
      ]);

      writeFileSync(prompt, "Version two: ${{ state.ticket }}\n");
      await until(() => dev.versionOf("triage") === 2);
      await dev.executor.run("triage", { input: { ticket: "t", messages: [] } });
      expect(stub.requests.at(-1)!.messages).toEqual([
        { role: "system", content: "Version two: t\n" },
      ]);

      writeFileSync(prompt, "Broken:\n${{ state.tickt }}\n");
      await until(() => r.count("rejected") === 1);
      expect(r.events.find((e) => e.type === "rejected")).toMatchObject({
        kept: 2,
        diagnostics: [
          expect.objectContaining({
            file: expect.stringMatching(/prompts[/\\]triage\.md$/),
            line: 2,
            column: 11,
            rule: "unknown-state-key",
          }),
        ],
      });
      await dev.executor.run("triage", { input: { ticket: "t", messages: [] } });
      expect(stub.requests.at(-1)!.messages).toEqual([
        { role: "system", content: "Version two: t\n" },
      ]);

      // Deleted: refused at the spec's `file:`; created again: the fix is a reload.
      rmSync(prompt);
      await until(() => r.count("rejected") === 2);
      expect(r.events.filter((e) => e.type === "rejected").at(-1)).toMatchObject({
        diagnostics: [expect.objectContaining({ rule: "prompt-file", line: 11 })],
      });
      writeFileSync(prompt, "Version three.\n");
      await until(() => dev.versionOf("triage") === 3);
      await dev.executor.run("triage", { input: { ticket: "t", messages: [] } });
      expect(stub.requests.at(-1)!.messages).toEqual([
        { role: "system", content: "Version three.\n" },
      ]);

      // A spec now naming a file not there yet: creating it is the fix.
      writeFileSync(
        join(root, "graphs", "triage.yaml"),
        spec(model, "    system: { file: prompts/other.md }"),
      );
      await until(() => r.count("rejected") === 3);
      writeFileSync(join(root, "graphs", "prompts", "other.md"), "Other prompt.\n");
      await until(() => dev.versionOf("triage") === 4);
      await dev.executor.run("triage", { input: { ticket: "t", messages: [] } });
      expect(stub.requests.at(-1)!.messages).toEqual([
        { role: "system", content: "Other prompt.\n" },
      ]);
    } finally {
      await dev.close();
    }
  });
});
