/**
 * Module references through the public surface: resolution, loading (by compile in this process,
 * by validate only with `loadModules`, in a process of its own), the shared cache, and the errors a
 * module can raise while loading.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compile, type Diagnostic, parseSpec, readSpec, validate } from "../src/index.js";

const FIXTURES = join(import.meta.dirname, "fixtures");

const loads = () =>
  (globalThis as { __graphspecCountedLoads?: number }).__graphspecCountedLoads ?? 0;

/** A spec in test/fixtures/valid (not on disk) whose tool lives in modules/counted.ts. */
const countedSpec = (name: string, module = "../modules/counted.ts") =>
  parseSpec(
    `version: 1
name: ${name}
state:
  reply: { type: string }
tools:
  ping: { module: ${module}, description: Ping., schema: { type: object } }
nodes:
  call: { kind: tool, tool: ping, write: reply }
edges:
  - { from: START, to: call }
  - { from: call, to: END }
`,
    { root: FIXTURES, file: `${name}.yaml` },
    join(FIXTURES, "valid", `${name}.yaml`),
  );

const summary = (ds: Diagnostic[]) => ds.map((d) => `${d.rule}: ${d.message}`);

describe("module cache", () => {
  it("validate never imports a module into its own process, loading or not", async () => {
    const before = loads();
    expect(await validate(countedSpec("zeroth"))).toEqual([]);
    expect(await validate(countedSpec("zeroth-loaded"), { loadModules: true })).toEqual([]);
    expect(loads() - before).toBe(0);
  });

  it("compile imports a module once across the specs of one run", async () => {
    const before = loads();
    const cache = new Map<string, unknown>();
    await compile(countedSpec("first"), { cache });
    await compile(countedSpec("second"), { cache });
    expect(loads() - before).toBe(1);
  });

  it("imports a TypeScript module once per process, even without a shared cache, as JavaScript", async () => {
    // tsx's `tsImport` per compile imported a new copy of the module and of all it imports
    // (LangChain included: ~2 s per `graphspec test` test); one registration caches by URL.
    const before = loads();
    await compile(countedSpec("third"));
    await compile(countedSpec("fourth"));
    expect(loads() - before).toBe(0);
  });

  it("loads nothing with loadModules: false, but still resolves the files", async () => {
    const before = loads();
    expect(await validate(countedSpec("fifth"), { loadModules: false })).toEqual([]);
    const missing = await validate(countedSpec("sixth", "../modules/countd.ts"), {
      loadModules: false,
    });
    expect(loads() - before).toBe(0);
    expect(missing.map((d) => [d.rule, d.message, d.hint])).toEqual([
      [
        "unknown-module",
        "module `../modules/countd.ts` does not exist",
        "did you mean `../modules/counted.ts`?",
      ],
    ]);
  });

  it("does not check exports when modules are not loaded", async () => {
    const doc = await readSpec(join(FIXTURES, "invalid/unknown-export/missing.yaml"), {
      root: FIXTURES,
    });
    const found = await validate(doc, { loadModules: false });
    expect(found.filter((d) => d.rule === "unknown-export")).toEqual([]);
  });
});

describe("modules that fail to load", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** A throwaway project: package.json, the given files, and a spec using `./mod.ts` as a function node. */
  const project = async (files: Record<string, string>, module = "./mod.ts") => {
    const root = mkdtempSync(join(tmpdir(), "graphspec-modules-"));
    dirs.push(root);
    writeFileSync(join(root, "package.json"), '{ "type": "module" }\n');
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
    writeFileSync(
      join(root, "spec.yaml"),
      `version: 1
name: p
state:
  n: { type: integer }
nodes:
  run: { kind: function, module: ${module} }
edges:
  - { from: START, to: run }
  - { from: run, to: END }
`,
    );
    const doc = await readSpec(join(root, "spec.yaml"));
    return { root, found: await validate(doc, { loadModules: true }) };
  };

  it("without loading, a TypeScript syntax error is found by parsing, at its line and column", async () => {
    const root = mkdtempSync(join(tmpdir(), "graphspec-modules-"));
    dirs.push(root);
    writeFileSync(join(root, "package.json"), '{ "type": "module" }\n');
    writeFileSync(join(root, "mod.ts"), "// header\nexport const x: number = ;\n");
    writeFileSync(
      join(root, "spec.yaml"),
      "version: 1\nname: p\nstate:\n  n: { type: integer }\nnodes:\n  run: { kind: function, module: ./mod.ts }\nedges:\n  - { from: START, to: run }\n  - { from: run, to: END }\n",
    );
    const found = await validate(await readSpec(join(root, "spec.yaml")));
    expect(found.map((d) => [d.rule, d.line, d.column, d.message])).toEqual([
      [
        "unknown-module",
        6,
        34,
        'module `./mod.ts` does not parse: line 2, column 26: Unexpected ";"',
      ],
    ]);
  });

  it("gives a TypeScript syntax error's first meaningful line, with the path as written", async () => {
    const { found } = await project({ "mod.ts": "// header\nexport const x: number = ;\n" });
    expect(found.map((d) => [d.rule, d.line, d.column, d.message])).toEqual([
      [
        "unknown-module",
        6,
        34,
        'module `./mod.ts` failed to load: TransformError: ./mod.ts:2:25: Unexpected ";"',
      ],
    ]);
  });

  it("names a missing package and how to install it", async () => {
    const { found } = await project({
      "mod.ts": 'import "graphspec-no-such-package";\nexport default () => ({});\n',
    });
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toMatch(
      /^module `\.\/mod\.ts` failed to load: Cannot find package 'graphspec-no-such-package' imported from \.\/mod\.ts$/,
    );
    expect(found[0]!.hint).toBe("install it: `npm install graphspec-no-such-package`");
  });

  it("shows no stack trace and no absolute paths", async () => {
    const { root, found } = await project({
      "mod.ts": `throw new Error("cannot open " + ${JSON.stringify(tmpdir())} + "/x.db\\n  at frame");\n`,
    });
    expect(found).toHaveLength(1);
    expect(found[0]!.message).not.toContain("\n");
    expect(found[0]!.message).not.toContain(root);
    expect(found[0]!.message).toMatch(/^module `\.\/mod\.ts` failed to load: cannot open /);
  });

  it("catches a symlinked directory leading out of the project, even to a missing file", async () => {
    const outside = mkdtempSync(join(tmpdir(), "graphspec-outside-"));
    dirs.push(outside);
    const root = mkdtempSync(join(tmpdir(), "graphspec-modules-"));
    dirs.push(root);
    mkdirSync(join(root, "src"));
    symlinkSync(outside, join(root, "src", "shared"));
    writeFileSync(join(root, "package.json"), "{}\n");
    writeFileSync(
      join(root, "spec.yaml"),
      `version: 1
name: p
state:
  n: { type: integer }
nodes:
  run: { kind: function, module: ./src/shared/missing.ts }
edges:
  - { from: START, to: run }
  - { from: run, to: END }
`,
    );
    const found = await validate(await readSpec(join(root, "spec.yaml")));
    expect(summary(found)).toEqual([
      "path-escape: module `./src/shared/missing.ts` leads through a symbolic link to a file outside the project root",
    ]);
  });
});
