/**
 * `graphspec types` as a CI user meets it: the same bytes every time, `--check`, any graph name
 * giving TypeScript that compiles, a pause inside a subgraph typed as the child's, and specs with
 * errors refused with their diagnostics.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cli, markedErrors, projectScratch, TSX, typeCheck } from "./harness.js";

const scratch = projectScratch();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder with these files (paths relative to it). */
function folder(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const spec = (name: string, extra = "") => `version: 1
name: ${JSON.stringify(name)}
state:
  greeting: { type: string }
nodes:
  greet: { kind: set, values: { greeting: "hello" } }${extra}
edges:
  - { from: START, to: greet }
  - { from: greet, to: END }
`;

/** A graph that pauses at a node whose name and payload key are no identifiers. */
const pausing = (name: string) => `version: 1
name: ${JSON.stringify(name)}
state:
  greeting: { type: string, default: hi }
nodes:
  "needs approval":
    kind: interrupt
    payload: { "odd key": "\${{ state.greeting }}" }
    schema: { type: string }
edges:
  - { from: START, to: "needs approval" }
  - { from: "needs approval", to: END }
`;

const readAll = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), "utf8")]),
  );

describe("deterministic output", () => {
  it("the same specs give the same bytes: twice, given in another order, run from another folder", () => {
    const dir = folder("same", {
      "graphs/a.yaml": spec("alpha"),
      "graphs/b.yaml": spec("beta"),
    });
    const ok = (r: { status: number | null; stderr: string }) => expect(r.status, r.stderr).toBe(0);
    ok(cli(["types", "graphs/a.yaml", "graphs/b.yaml", "-o", "out1"], dir));
    ok(cli(["types", "graphs/b.yaml", "graphs/a.yaml", "-o", "out2"], dir));
    ok(cli(["types", "a.yaml", "b.yaml", "-o", "../out3"], join(dir, "graphs")));
    const first = readAll(join(dir, "out1"));
    expect(Object.keys(first)).toEqual(["alpha.ts", "beta.ts", "index.ts"]);
    expect(readAll(join(dir, "out2"))).toEqual(first);
    expect(readAll(join(dir, "out3"))).toEqual(first);
    ok(cli(["types", "graphs/", "-o", "out1"], dir));
    expect(readAll(join(dir, "out1"))).toEqual(first);
  });
});

describe("--check", () => {
  const dir = folder("check", {
    "graphs/a.yaml": spec("alpha"),
    "graphs/b.yaml": spec("beta"),
  });
  const check = () => cli(["types", "graphs/", "-o", "types", "--check"], dir);

  it("exits 1 naming what differs, 0 when the folder is what the specs give", () => {
    const missing = check();
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("types/alpha.ts: missing");
    expect(existsSync(join(dir, "types"))).toBe(false);

    expect(cli(["types", "graphs/", "-o", "types"], dir).status).toBe(0);
    const clean = check();
    expect(clean.stderr).toContain("up to date");
    expect(clean.status).toBe(0);

    writeFileSync(
      join(dir, "types", "beta.ts"),
      `${readFileSync(join(dir, "types", "beta.ts"), "utf8")}// edited\n`,
    );
    const edited = check();
    expect(edited.status).toBe(1);
    expect(edited.stderr).toContain("types/beta.ts: out of date");
    expect(edited.stderr).toContain("hint: run `graphspec types`");
    expect(edited.stderr).not.toContain("alpha.ts");
  });

  it("a graph no longer given leaves a stale module: --check says so, writing removes it and keeps the user's own files", () => {
    expect(cli(["types", "graphs/", "-o", "types"], dir).status).toBe(0);
    writeFileSync(join(dir, "types", "mine.ts"), "export const mine = 1;\n");
    rmSync(join(dir, "graphs", "b.yaml"));
    const stale = check();
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain("types/beta.ts: of no graph given (stale)");
    expect(stale.stderr).not.toContain("mine.ts");
    expect(cli(["types", "graphs/", "-o", "types"], dir).status).toBe(0);
    expect(readdirSync(join(dir, "types")).sort()).toEqual(["alpha.ts", "index.ts", "mine.ts"]);
    expect(check().status).toBe(0);
  });
});

describe("names", () => {
  it("graph names that collide once made identifiers get distinct names, and all compile together", () => {
    // The schema's graph ids: lower-case letters, digits, `_` and `-`. Node names are free.
    const names = [
      "a-b",
      "a_b",
      "a--b",
      "x",
      "x-state",
      "index",
      "graphspec",
      "typed",
      "graph",
      "n1",
    ];
    const files = Object.fromEntries(names.map((n, i) => [`graphs/g${i}.yaml`, pausing(n)]));
    const dir = folder("names", files);
    const r = cli(["types", "graphs/", "-o", "types"], dir);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const written = readdirSync(join(dir, "types")).sort();
    expect(written).toEqual(
      [
        "a-b",
        "a--b",
        "a_b",
        "graph",
        "graphspec",
        "index-2",
        "n1",
        "typed",
        "x",
        "x-state",
        "index",
      ]
        .map((f) => `${f}.ts`)
        .sort(),
    );
    const exported = exportedNames(join(dir, "types"));
    expect(new Set(exported).size).toBe(exported.length);
    expect(exported).toEqual(
      expect.arrayContaining([
        "AB",
        "AB2",
        "AB3",
        "X",
        "XState",
        "XState2",
        "Graphspec",
        "Typed",
        "typedGraph",
        "typedRuns",
      ]),
    );
    expect(usesEveryName(dir, exported, "AB")).toEqual([]);
  });

  it("any name at all (unicode, digits first, punctuation only) makes modules that compile", async () => {
    // Past the schema's ids, as a spec a future version allows: the generator itself, on its own.
    const { typesModules } = await import("../../src/typegen/types-modules.js");
    const names = ["ünï-cödé", "1st graph", "--", "日本語", "GRAPH", "graph", "a.b", "$x"];
    const dir = join(scratch, "any-name");
    mkdirSync(join(dir, "types"), { recursive: true });
    const graphs = names.map((name) => {
      const spec = parse(pausing("placeholder")) as { name: string };
      spec.name = name;
      return { spec: spec as never, file: join(dir, "g.yaml"), from: "g.yaml" };
    });
    const files = await typesModules(graphs);
    expect(files.size).toBe(names.length + 1);
    for (const [file, text] of files) writeFileSync(join(dir, "types", file), text);
    const exported = exportedNames(join(dir, "types"));
    expect(new Set(exported).size).toBe(exported.length);
    expect(exported).toEqual(
      expect.arrayContaining(["ÜnïCödé", "Graph1stGraph", "日本語", "Graph", "GRAPH", "AB", "X"]),
    );
    expect(usesEveryName(dir, exported, "ÜnïCödé")).toEqual([]);
  });
});

/** The names the modules of `dir` export. */
function exportedNames(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f !== "index.ts")
    .flatMap((f) =>
      [
        ...readFileSync(join(dir, f), "utf8").matchAll(
          /^export (?:interface|type|function) ([^\s<({]+)/gmu,
        ),
      ].map((m) => m[1]!),
    );
}

/** Type-checks a program importing every module through the index and using each helper (an ambiguous re-export is an error). */
function usesEveryName(dir: string, exported: string[], base: string): string[] {
  const program = `import * as all from "./types/index.js";
const answer: all.${base}Answer = { node: "needs approval", value: "yes" };
const odd: all.${base}Interrupts["needs approval"]["payload"] = { "odd key": "hello" };
const helpers = [${exported
    .filter((e) => /^[\p{Ll}$]/u.test(e))
    .map((e) => `all.${e}`)
    .join(", ")}];
console.log(answer, odd, helpers.length);
`;
  writeFileSync(join(dir, "program.ts"), program);
  const { errors, stdout } = typeCheck(dir);
  return errors.length ? [stdout] : [];
}

describe("subgraphs", () => {
  const child = `version: 1
name: review
state:
  draft: { type: string, default: "" }
  ok: { type: boolean, default: false }
nodes:
  ask:
    kind: interrupt
    payload: { draft: "\${{ state.draft }}", words: "\${{ size(state.draft) }}" }
    schema: { type: object, properties: { ok: { type: boolean } }, required: [ok] }
    write: { ok: "\${{ resume.ok }}" }
edges:
  - { from: START, to: ask }
  - { from: ask, to: END }
`;
  const parent = `version: 1
name: publish
state:
  draft: { type: string, default: "" }
  ok: { type: boolean, default: false }
nodes:
  review: { kind: subgraph, graph: ./review.yaml }
edges:
  - { from: START, to: review }
  - { from: review, to: END }
`;
  const program = `import { createExecutor } from "graphspec";
import { publishRuns } from "./types/index.js";
const exec = createExecutor({ dir: "graphs", checkpointer: "memory" });
const publish = publishRuns(exec);
const paused = await publish.run({ input: { draft: "Hello there" } });
if (paused.status !== "interrupted") throw new Error(paused.status);
const shown = paused.interrupts[0]!;
const words: number | undefined = "words" in shown.value ? shown.value.words : undefined;
const done = await publish.resume({ threadId: paused.threadId, node: "review", value: { ok: true } });
if (done.status !== "completed") throw new Error(done.status);
const ok: boolean = done.output.ok;
console.log(JSON.stringify({ node: shown.node, words, ok, status: done.status }));
await exec.close();
`;
  const misuse = `import { createExecutor } from "graphspec";
import { publishRuns } from "./types/index.js";
const publish = publishRuns(createExecutor({ dir: "graphs", checkpointer: "memory" }));
await publish.resume({ threadId: "t", node: "review", value: { ok: "yes" } }); // error: TS2322
`;

  it("a pause inside a child is typed, and answered, as the child's interrupt under the parent's node", () => {
    const dir = folder("subgraphs", {
      "graphs/publish.yaml": parent,
      "graphs/review.yaml": child,
      "program.ts": program,
      "misuse.ts": misuse,
    });
    const r = cli(["types", "graphs/", "-o", "types"], dir);
    expect(r.status, r.stderr).toBe(0);
    const { errors, stdout } = typeCheck(dir);
    expect(errors, stdout).toEqual(markedErrors("misuse.ts", misuse));
    const run = spawnSync(TSX, ["program.ts"], { cwd: dir, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      node: "review",
      words: 11,
      ok: true,
      status: "completed",
    });
  });
});

describe("errors", () => {
  it("a spec with errors: exit 1, its diagnostics with file:line:col, nothing written", () => {
    const dir = folder("invalid", {
      "graphs/bad.yaml": spec("bad").replace("to: END }\n", "to: ENDD }\n"),
    });
    const r = cli(["types", "graphs/", "-o", "types"], dir);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/graphs\/bad\.yaml:\d+:\d+: error: .*\[unknown-node\]/);
    expect(r.stderr).toContain("no types written");
    expect(existsSync(join(dir, "types"))).toBe(false);
  });

  it("without -o, or with no spec where it looks: a usage error (exit 2) with a hint, no stack", () => {
    const dir = folder("usage", { "graphs/a.yaml": spec("alpha") });
    const noOut = cli(["types", "graphs/"], dir);
    expect(noOut.status).toBe(2);
    expect(noOut.stderr).toContain("-o <dir>");
    const none = cli(["types", "nothing/", "-o", "types"], dir);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('no spec files match "nothing/"');
    expect(noOut.stderr + none.stderr).not.toMatch(/\n\s+at /);
  });
});
