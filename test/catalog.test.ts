/**
 * A project's catalog of tools and models (`catalog: ../catalog.yaml`): validate checks its
 * entries with the same rules as inline ones, positioned in the catalog file; `unknown-tool`
 * suggests over both; compile and run use them as if inline, with module paths relative to the
 * catalog; a catalog outside the project is a `path-escape`.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compile, createExecutor, readSpec, validate } from "../src/index.js";
import { catalogFile } from "../src/modules/index.js";
import { formatExpected } from "./helpers.js";

const BIN = join(import.meta.dirname, "..", "bin", "graphspec.js");
const top = mkdtempSync(join(tmpdir(), "graphspec-catalog-"));
afterAll(() => rmSync(top, { recursive: true, force: true }));
const dir = join(top, "project");
mkdirSync(join(dir, "graphs"), { recursive: true });
mkdirSync(join(dir, "shared", "tools"), { recursive: true });
writeFileSync(join(dir, "package.json"), "{}");
const catalogText = `models:
  default:
    model: "scripted:small"
    allow: [large]
  large: { model: "scripted:large" }
tools:
  shout:
    module: tools/shout.mjs
    description: Shout a word.
    schema:
      type: object
      properties: { word: { type: string } }
      required: [word]
`;
writeFileSync(join(dir, "shared", "catalog.yaml"), catalogText);
// Relative to the catalog (shared/), not to the spec (graphs/).
writeFileSync(
  join(dir, "shared", "tools", "shout.mjs"),
  "export default ({ word }) => word.toUpperCase() + '!';\n",
);
const app = join(dir, "graphs", "app.yaml");
writeFileSync(
  app,
  `version: 1
name: app
catalog: ../shared/catalog.yaml
state:
  messages: { type: messages }
  loud: { type: string, default: "" }
nodes:
  call: { kind: tool, tool: shout, args: { word: hello }, write: loud }
  ask: { kind: llm, prompt: Hi. }
edges:
  - { from: START, to: call }
  - { from: call, to: ask }
  - { from: ask, to: END }
`,
);
const write = (rel: string, text: string) => {
  const path = join(dir, rel);
  writeFileSync(path, text);
  return path;
};
const check = async (path: string) =>
  formatExpected(
    await validate(await readSpec(path, { root: dir, file: path.slice(dir.length + 1) })),
  );

describe("validate with a catalog", () => {
  it("takes the catalog's tools and models as declared", async () => {
    expect(await check(app)).toEqual([]);
  });

  it("reports a catalog entry's problems in the catalog file, at their line", async () => {
    write(
      "shared/bad-catalog.yaml",
      `models:
  default: { model: "opnai:gpt-4o", allow: [larg] }
tools:
  missing: { module: tools/nowhere.mjs, description: x, schema: { type: object } }
nodes: {}
`,
    );
    const spec = write(
      "graphs/bad.yaml",
      `version: 1
name: bad
catalog: ../shared/bad-catalog.yaml
state:
  messages: { type: messages }
nodes:
  ask: { kind: llm, prompt: Hi. }
  act: { kind: agent, tools: [mising], system: Act. }
edges:
  - { from: START, to: ask }
  - { from: ask, to: act }
  - { from: act, to: END }
`,
    );
    const found = await validate(await readSpec(spec, { root: dir, file: "graphs/bad.yaml" }));
    const lines = found.map((d) => `${d.file}:${d.line}:${d.column} [${d.rule}] ${d.message}`);
    expect(lines).toEqual(
      expect.arrayContaining([
        "shared/bad-catalog.yaml:5:1 [schema] a catalog holds `tools` and `models`, not `nodes`",
        expect.stringMatching(/^shared\/bad-catalog\.yaml:2:21 \[unknown-provider\]/),
        expect.stringMatching(/^shared\/bad-catalog\.yaml:2:45 \[unknown-model\] .*`larg`/),
        expect.stringMatching(
          /^shared\/bad-catalog\.yaml:4:22 \[unknown-module\] .*tools\/nowhere\.mjs/,
        ),
        expect.stringMatching(/^graphs\/bad\.yaml:8:31 \[unknown-tool\] /),
      ]),
    );
    const unknownTool = found.find((d) => d.rule === "unknown-tool");
    expect(unknownTool?.message).toBe(
      "tool `mising` is declared neither in `tools` nor in the catalog `shared/bad-catalog.yaml`",
    );
    expect(unknownTool?.hint).toContain("did you mean `missing`?");
  });

  it("refuses a catalog outside the project", async () => {
    writeFileSync(join(top, "outside.yaml"), catalogText);
    const spec = write(
      "graphs/escape.yaml",
      `version: 1
name: escape
catalog: ../../outside.yaml
state:
  messages: { type: messages }
nodes:
  ask: { kind: llm, prompt: Hi. }
edges:
  - { from: START, to: ask }
  - { from: ask, to: END }
`,
    );
    const lines = await check(spec);
    expect(lines[0]).toMatch(
      /^3:10-3:28 error \[path-escape\] catalog `\.\.\/\.\.\/outside\.yaml`: /,
    );
  });

  it("exposes the catalog as a file the spec references", async () => {
    const doc = await readSpec(app, { root: dir });
    expect(catalogFile(doc)).toBe(join(dir, "shared", "catalog.yaml"));
  });
});

describe("compile and run with a catalog", () => {
  it("compile() uses the catalog's tools (module relative to it) and models", async () => {
    const graph = await compile(app, { scripts: { small: ["hi there"] } });
    const out = await graph.invoke({ messages: [] });
    expect(out.loud).toBe("HELLO!");
    expect(out.messages.at(-1)?.content).toBe("hi there");
  });

  it("the executor runs it, and a run chooses among the catalog's models", async () => {
    const exec = createExecutor({
      dir: join(dir, "graphs"),
      checkpointer: "memory",
      scripts: { small: ["small"], large: ["large"] },
    });
    const result = await exec.run("app", { input: { messages: [] }, model: "large" });
    expect(result.status).toBe("completed");
    expect(result.output.loud).toBe("HELLO!");
    expect((result.output.messages as { content: string }[]).at(-1)?.content).toBe("large");
  });

  it("graphspec validate prints the catalog's file and line", () => {
    const r = spawnSync(process.execPath, [BIN, "validate", "graphs/bad.yaml"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      "shared/bad-catalog.yaml:2:21: error: model `default` names the provider `opnai`",
    );
    // The catalog's line is quoted under its finding.
    expect(r.stdout).toContain('2 |   default: { model: "opnai:gpt-4o", allow: [larg] }');
  });
});

describe("graphspec validate given a folder that holds a catalog", () => {
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [BIN, "validate", ...args], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
  mkdirSync(join(dir, "lib", "tools"), { recursive: true });
  writeFileSync(
    join(dir, "lib", "tools", "greet.mjs"),
    "export default ({ who }) => `hi ${who}`;\n",
  );
  writeFileSync(
    join(dir, "lib", "catalog.yaml"),
    `models:
  default: { model: "opnai:gpt-4o-mini" }  # graphspec-disable-line unknown-provider
  alt: { model: "openai:gpt-4o", allow: [larg] }
tools:
  greet:
    module: tools/greet.mjs
    description: Greet someone.
    schema: { type: object, properties: { who: { type: string } }, required: [who] }
    bind: { who: "\${{ context.user }}" }
  gone: { module: gone.mjs, description: Gone., schema: { type: object } }
`,
  );
  writeFileSync(
    join(dir, "lib", "uses.yaml"),
    `version: 1
name: uses
catalog: ./catalog.yaml
state:
  messages: { type: messages }
context:
  user: { type: string }
nodes:
  ask: { kind: llm, model: alt, prompt: Hi. }
edges:
  - { from: START, to: ask }
  - { from: ask, to: END }
`,
  );

  it("checks the catalog as a catalog, each finding once, at its line, its suppressions read", () => {
    const r = cli("lib/", "--format", "json");
    expect(r.status).toBe(1);
    const found = (JSON.parse(r.stdout) as { file: string; line: number; rule: string }[]).map(
      (d) => `${d.file}:${d.line} [${d.rule}]`,
    );
    // Not a spec missing `version`, `name`, `state`, …; `larg` and `gone.mjs` once each although
    // the catalog is checked on its own and through uses.yaml; line 2's suppression holds.
    expect(found).toEqual([
      "lib/catalog.yaml:3 [unknown-model]",
      "lib/catalog.yaml:10 [unknown-module]",
    ]);
  });

  it("says a catalog tool's module is relative to the catalog", () => {
    const r = cli("lib/catalog.yaml");
    expect(r.stdout).toContain("module `gone.mjs` does not exist");
    expect(r.stdout).toContain("paths are relative to the catalog file");
    // The context `bind` reads is the spec's: on its own, the catalog cannot know it.
    expect(r.stdout).not.toContain("context");
  });

  it("a catalog tool's `bind` is checked against the context of the specs that use the tool only", () => {
    const spec = (name: string, node: string) =>
      writeFileSync(
        join(dir, "lib", `${name}.yaml`),
        `version: 1
name: ${name}
catalog: ./catalog.yaml
state:
  messages: { type: messages }
  out: { type: string, default: "" }
nodes:
  ${node}
edges:
  - { from: START, to: step }
  - { from: step, to: END }
`,
      );
    spec("skips", "step: { kind: llm, prompt: Hi. }");
    spec("calls", "step: { kind: tool, tool: greet, args: {}, write: out }");
    const rules = (file: string) =>
      (JSON.parse(cli(file, "--format", "json").stdout) as { file: string; rule: string }[])
        .filter((d) => d.rule === "unknown-state-key")
        .map((d) => d.file);
    expect(rules("lib/skips.yaml")).toEqual([]);
    expect(rules("lib/calls.yaml")).toEqual(["lib/catalog.yaml"]);
  });

  it("a catalog's suppression comment holds through a spec that names it", () => {
    const r = cli("lib/uses.yaml", "--format", "json");
    const rules = (JSON.parse(r.stdout) as { rule: string }[]).map((d) => d.rule);
    expect(rules).not.toContain("unknown-provider");
    expect(rules).toContain("unknown-module");
  });
});
