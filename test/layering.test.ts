/**
 * The layering of docs/design.md ("Where code lives"): each folder of src/ imports only the folders
 * below it, the validate path (diagnostics/, spec/, json-schema/, modules/, expr/, check/) never
 * imports LangChain (so `graphspec validate` starts fast and runs in CI without LangGraph), check/ is
 * used from above only through its entry (check/validate.ts), nothing imports cli/ but bin/, and
 * no file of src/ imports itself back through others (no import cycles, type-only ones included).
 *
 * (a) statically, from the import graph the TypeScript compiler itself resolves (`tsc --explainFiles`:
 *     type-only and dynamic imports included);
 * (b) at run time, by running the built CLI with a module-resolution hook that records every module
 *     it resolves;
 * (c) for `graphspec validate` as bin/graphspec.js runs it — from one script of its modules and
 *     packages, dist/cli/validate.cjs — by what the script holds (its source map's sources) and
 *     what it loads besides.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const VALIDATE_PATH = ["diagnostics", "spec", "json-schema", "modules", "expr", "check"];
const LAYERED = new RegExp(`^src/(${VALIDATE_PATH.join("|")})/`);
const LANGCHAIN_SPECIFIER = /^(@langchain\/|langchain($|\/))/;
const LANGCHAIN_FILE = /(^|\/)node_modules\/(@langchain\/|langchain\/)/;
/**
 * The optional peer dependencies (package.json) and what they bring: a program that compiles and
 * runs on the memory checkpointer, and a CI job that validates, install none of them.
 */
const PEERS = [
  ...Object.keys(
    (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
        peerDependencies: Record<string, string>;
      }
    ).peerDependencies,
  ),
  "better-sqlite3",
  "prettier",
];
const PEER_FILE = new RegExp(
  `(^|/)node_modules/(${PEERS.map((p) => p.replace(/[/.]/g, "\\$&")).join("|")})/`,
);

/**
 * The folders of src/ each folder may import (besides itself), bottom to top. `index.ts` at the
 * root (the package entry) may import any folder but cli/.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  diagnostics: [],
  // Loading the optional peer packages (a clear error when one is missing): any layer may.
  peers: [],
  // The drawable-graph contract and its layout: shared by the server, the web page and `graphspec draw`.
  draw: [],
  spec: ["diagnostics"],
  "json-schema": ["diagnostics", "spec"],
  modules: ["diagnostics", "spec"],
  expr: ["diagnostics", "spec"],
  check: ["diagnostics", "spec", "json-schema", "modules", "expr"],
  compile: ["diagnostics", "spec", "json-schema", "modules", "expr", "check", "peers"],
  run: ["diagnostics", "spec", "json-schema", "modules", "expr", "check", "compile", "peers"],
  // `graphspec lsp`: validate's findings in an editor; reads specs, never runs them (no LangChain).
  lsp: ["diagnostics", "spec", "json-schema", "modules", "expr", "check"],
  // `graphspec types`: TypeScript from specs; reads them, never runs them (no LangChain).
  typegen: ["diagnostics", "spec", "json-schema", "expr"],
  server: [
    "diagnostics",
    "spec",
    "json-schema",
    "modules",
    "expr",
    "check",
    "compile",
    "run",
    "draw",
    "peers",
  ],
  dev: [
    "diagnostics",
    "spec",
    "json-schema",
    "modules",
    "expr",
    "check",
    "compile",
    "run",
    "server",
    "draw",
  ],
  cli: [
    "diagnostics",
    "spec",
    "json-schema",
    "modules",
    "expr",
    "check",
    "compile",
    "run",
    "server",
    "dev",
    "draw",
    "typegen",
    "lsp",
    "peers",
  ],
};
/** check/'s one door for the layers above it. */
const CHECK_ENTRY = "src/check/validate.ts";

/** The folder of src/ a file is in (`check` for src/check/rules/x.ts), `.` for src/index.ts. */
const folderOf = (file: string): string | undefined => {
  const m = /^src\/(?:([^/]+)\/)?[^/]+$/.exec(file) ?? /^src\/([^/]+)\//.exec(file);
  return m ? (m[1] ?? ".") : undefined;
};

interface Edge {
  importer: string;
  specifier: string;
  /** The file the import resolved to, relative to the project root. */
  target: string;
}

/** Every import in src/ with where it resolved, as the TypeScript compiler sees them. */
function importGraph(): Edge[] {
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const out = spawnSync(
    process.execPath,
    [tsc, "-p", "tsconfig.build.json", "--noEmit", "--explainFiles"],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  ).stdout;
  // Each file is a line of its own, followed by indented reasons such as
  //   Imported via "./catalog.js" from file 'src/check/check-context.ts'
  const edges: Edge[] = [];
  let target = "";
  for (const line of out.split("\n")) {
    if (line && !/^\s/.test(line)) target = line.trim();
    const m = /^\s+Imported via (["'])(.+?)\1 from file '([^']+)'/.exec(line);
    if (m) edges.push({ specifier: m[2]!, importer: m[3]!, target });
  }
  return edges;
}

/**
 * The import cycles within src/: for every import that lies on one, the shortest way back to its
 * importer; each cycle once, as `a → b → a`.
 */
function importCycles(edges: readonly Edge[]): string[] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!e.importer.startsWith("src/") || !e.target.startsWith("src/")) continue;
    if (!next.has(e.importer)) next.set(e.importer, new Set());
    next.get(e.importer)!.add(e.target);
  }
  /** The shortest import path from `from` to `to` (both included), or undefined. */
  const pathTo = (from: string, to: string): string[] | undefined => {
    const before = new Map<string, string>([[from, from]]);
    const queue = [from];
    for (let i = 0; i < queue.length; i++) {
      const file = queue[i]!;
      if (file === to) {
        const path = [to];
        while (path[0] !== from) path.unshift(before.get(path[0]!)!);
        return path;
      }
      for (const n of next.get(file) ?? []) {
        if (before.has(n)) continue;
        before.set(n, file);
        queue.push(n);
      }
    }
    return undefined;
  };
  const cycles = new Map<string, string>();
  for (const [importer, targets] of next) {
    for (const target of targets) {
      const ring = pathTo(target, importer);
      if (!ring) continue;
      // Found from any of its imports, a cycle is told once: from its first file in sort order.
      const start = ring.indexOf([...ring].sort()[0]!);
      const rotated = [...ring.slice(start), ...ring.slice(0, start)];
      cycles.set(rotated.join(" "), [...rotated, rotated[0]].join(" → "));
    }
  }
  return [...cycles.values()].sort();
}

describe("static layering", () => {
  const edges = importGraph();

  it("sees the import graph", () => {
    // Guards against a tsc output change silently making every check below vacuous.
    expect(edges.some((e) => e.importer === "src/check/validate.ts")).toBe(true);
    expect(
      edges.some((e) => e.target === "src/cli/main.ts" || e.importer === "src/cli/main.ts"),
    ).toBe(true);
  });

  it("the validate path imports no LangChain", () => {
    const violations = edges
      .filter((e) => LAYERED.test(e.importer))
      .filter((e) => LANGCHAIN_SPECIFIER.test(e.specifier) || LANGCHAIN_FILE.test(e.target))
      .map((e) => `${e.importer} imports "${e.specifier}" (${e.target})`);
    expect(violations).toEqual([]);
  });

  it("every folder of src/ is in the layering table", () => {
    const folders = new Set(
      edges.flatMap((e) => [folderOf(e.importer), folderOf(e.target)]).filter((f) => f),
    );
    folders.delete(".");
    expect([...folders].filter((f) => !(f! in MAY_IMPORT))).toEqual([]);
  });

  it("each folder imports only the folders below it", () => {
    const violations = edges
      .filter((e) => e.importer.startsWith("src/") && e.target.startsWith("src/"))
      .filter((e) => {
        const from = folderOf(e.importer)!;
        const to = folderOf(e.target)!;
        if (from === to) return false;
        if (from === ".") return to === "cli";
        return !MAY_IMPORT[from]?.includes(to);
      })
      .map((e) => `${e.importer} imports "${e.specifier}" (${e.target})`);
    expect(violations).toEqual([]);
  });

  it("above check/, only its entry (check/validate.ts) is imported", () => {
    const violations = edges
      .filter((e) => e.target.startsWith("src/check/") && !e.importer.startsWith("src/check/"))
      .filter((e) => e.target !== CHECK_ENTRY)
      .map((e) => `${e.importer} imports "${e.specifier}" (${e.target})`);
    expect(violations).toEqual([]);
  });

  it("src/ has no import cycles", () => {
    // The check itself finds cycles (so an empty list below means something).
    const made = (importer: string, target: string): Edge => ({ importer, target, specifier: "" });
    expect(
      importCycles([
        made("src/b.ts", "src/a.ts"),
        made("src/a.ts", "src/b.ts"),
        made("src/b.ts", "src/c.ts"),
        made("src/c.ts", "src/a.ts"),
        made("src/c.ts", "src/d.ts"),
      ]),
    ).toEqual(["src/a.ts → src/b.ts → src/a.ts", "src/a.ts → src/b.ts → src/c.ts → src/a.ts"]);
    expect(importCycles(edges)).toEqual([]);
  });

  it("nothing outside cli/ imports cli/ (bin/graphspec.js is the one way in)", () => {
    const violations = edges
      .filter((e) => e.target.startsWith("src/cli/") && !e.importer.startsWith("src/cli/"))
      .map((e) => `${e.importer} imports "${e.specifier}"`);
    expect(violations).toEqual([]);
  });
});

describe("run-time layering", () => {
  const dir = mkdtempSync(join(tmpdir(), "graphspec-layering-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Loaded with `node --import`: registers resolve hooks that log every resolution, and at exit
  // logs the CommonJS modules loaded (require() does not pass through the ESM hooks in Node 20).
  writeFileSync(
    join(dir, "hooks.mjs"),
    `import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, JSON.stringify({ specifier, parent: context.parentURL, url: result.url }) + "\\n");
  return result;
}
`,
  );
  writeFileSync(
    join(dir, "record.mjs"),
    `import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
const log = process.env.GRAPHSPEC_RESOLVE_LOG;
register("./hooks.mjs", import.meta.url, { data: { log } });
process.on("exit", () => {
  for (const file of Object.keys(createRequire(import.meta.url).cache))
    appendFileSync(log, JSON.stringify({ url: "file://" + file, cjs: true }) + "\\n");
});
`,
  );

  interface Resolution {
    specifier?: string;
    parent?: string;
    url: string;
    cjs?: boolean;
  }

  let runs = 0;
  /**
   * `validate` from the modules as tsc built them (dist/cli/main.js, which `graphs`, `export` and
   * the package entry load too): what each loads, and when. bin/graphspec.js runs `validate` from
   * one script of the same modules instead (the tests at the end).
   */
  function validateRecording(spec: string): { status: number | null; log: Resolution[] } {
    return recording([
      "--input-type=module",
      "-e",
      `const { main } = await import("./dist/cli/main.js");
process.exitCode = await main(["validate", ${JSON.stringify(spec)}]);`,
    ]);
  }

  function recording(args: string[]): { status: number | null; log: Resolution[] } {
    const log = join(dir, `log-${++runs}.jsonl`);
    writeFileSync(log, "");
    const r = spawnSync(
      process.execPath,
      ["--import", pathToFileURL(join(dir, "record.mjs")).href, ...args],
      { cwd: ROOT, encoding: "utf8", env: { ...process.env, GRAPHSPEC_RESOLVE_LOG: log } },
    );
    const lines = readFileSync(log, "utf8").split("\n").filter(Boolean);
    return { status: r.status, log: lines.map((l) => JSON.parse(l) as Resolution) };
  }

  const fromRoot = (url: string | undefined) =>
    url?.startsWith("file:")
      ? relative(ROOT, fileURLToPath(url)).split(sep).join("/")
      : (url ?? "");
  const isLangChain = (r: Resolution) => LANGCHAIN_FILE.test(fromRoot(r.url));

  it("validating a spec without tools loads no LangChain module", () => {
    const { status, log } = validateRecording("test/fixtures/valid/minimal.yaml");
    expect(status).toBe(0);
    // The hook saw our CLI load: the check below is not vacuous.
    expect(log.some((r) => fromRoot(r.url) === "dist/cli/main.js")).toBe(true);
    expect(log.some((r) => fromRoot(r.url) === "dist/check/validate.js")).toBe(true);
    expect(log.filter(isLangChain).map((r) => fromRoot(r.url))).toEqual([]);
  });

  it("validating a spec without modules or JSON Schemas loads no module reader and no Ajv compiler", () => {
    const { status, log } = validateRecording("test/fixtures/valid/minimal.yaml");
    expect(status).toBe(0);
    const files = log.map((r) => fromRoot(r.url));
    // The hook saw the generated schema validator load (with Ajv's runtime helpers): not vacuous.
    expect(files).toContain("dist/spec/schema-validator.generated.js");
    expect(files.some((f) => /(^|\/)node_modules\/ajv\/dist\/runtime\//.test(f))).toBe(true);
    // What a spec with TypeScript modules, or with schemas to compile, loads when it needs it.
    const needless =
      /(^|\/)node_modules\/(esbuild|es-module-lexer|cjs-module-lexer|ajv\/dist\/(core|2020|compile)\b)/;
    expect([...new Set(files.filter((f) => needless.test(f)))]).toEqual([]);
  });

  it("validating one YAML spec by its path loads no glob library, JSON parser or regex engine; each loads when needed", () => {
    // The three are a directory's or glob's expansion, a `.json` spec's syntax check and a
    // `pattern`'s engine: a one-file validate of a YAML spec with no pattern starts without them.
    const needless = /(^|\/)node_modules\/(tinyglobby|fdir|picomatch|jsonc-parser|re2js)\//;
    const loaded = (log: Resolution[]) =>
      [...new Set(log.map((r) => fromRoot(r.url)).filter((f) => needless.test(f)))].map(
        (f) => needless.exec(f)?.[2],
      );
    const one = validateRecording("test/fixtures/valid/minimal.yaml");
    expect(one.status).toBe(0);
    expect(one.log.some((r) => fromRoot(r.url) === "dist/check/validate.js")).toBe(true);
    expect(loaded(one.log)).toEqual([]);
    // A folder holding a JSON spec and a spec with a `pattern`: all three load (not vacuous).
    const folder = validateRecording("test/fixtures/valid");
    expect(folder.status).toBe(0);
    expect(new Set(loaded(folder.log))).toEqual(
      new Set(["tinyglobby", "fdir", "picomatch", "jsonc-parser", "re2js"]),
    );
  });

  it("the package entry loads no LangChain until compile() is called or an executor is used", () => {
    const script = `const g = await import("./dist/index.js");
const doc = await g.loadSpec("test/fixtures/valid/minimal.yaml");
if ((await g.validate(doc)).length) process.exit(3);
const exec = g.createExecutor({ checkpointer: "memory" });
await exec.close();
if (process.argv.includes("compile")) await g.compile(doc);`;
    const validated = recording(["--input-type=module", "-e", script]);
    expect(validated.status).toBe(0);
    expect(validated.log.some((r) => fromRoot(r.url) === "dist/index.js")).toBe(true);
    expect(validated.log.filter(isLangChain)).toEqual([]);
    // The same script, compiling too: now LangGraph loads (so the check above can fail).
    const compiled = recording(["--input-type=module", "-e", script, "compile"]);
    expect(compiled.status).toBe(0);
    expect(compiled.log.some(isLangChain)).toBe(true);
  });

  it("validating, and compiling and running a graph on the memory checkpointer, load no optional peer", () => {
    expect(PEERS).toContain("hono");
    const validated = validateRecording("graphs/support-triage.yaml");
    expect(validated.status).toBe(0);
    expect(validated.log.filter((r) => PEER_FILE.test(fromRoot(r.url)))).toEqual([]);
    const run = (checkpointer: string) =>
      recording([
        "--input-type=module",
        "-e",
        `const g = await import("./dist/index.js");
const graph = await g.compile("test/fixtures/valid/minimal.yaml");
const exec = g.createExecutor({ dir: "test/fixtures/valid", checkpointer: "${checkpointer}", sqlitePath: ${JSON.stringify(join(dir, "state.db"))} });
const result = await exec.run("minimal");
await exec.close();
if (result.status !== "completed" || result.output.greeting !== "hello") process.exit(3);`,
      ]);
    const memory = run("memory");
    expect(memory.status).toBe(0);
    expect(memory.log.some(isLangChain)).toBe(true);
    expect(memory.log.filter((r) => PEER_FILE.test(fromRoot(r.url))).map((r) => r.url)).toEqual([]);
    // The same on the SQLite checkpointer loads it (so the check above can fail).
    const sqlite = run("sqlite");
    expect(sqlite.status).toBe(0);
    expect(sqlite.log.some((r) => PEER_FILE.test(fromRoot(r.url)))).toBe(true);
  });

  it("validating graphs/support-triage.yaml, whose tools use LangChain, loads no LangChain and none of its modules", () => {
    const { status, log } = validateRecording("graphs/support-triage.yaml");
    expect(status).toBe(0);
    // The hook saw validate run (the checks below are not vacuous) ...
    expect(log.some((r) => fromRoot(r.url) === "dist/check/validate.js")).toBe(true);
    // ... and it parsed the tool modules rather than importing them.
    expect(
      log.filter((r) => fromRoot(r.url).startsWith("tools/")).map((r) => fromRoot(r.url)),
    ).toEqual([]);
    expect(log.filter(isLangChain).map((r) => fromRoot(r.url))).toEqual([]);
  });

  it("bin/graphspec.js validates from its one script: no other module of dist/, no LangChain, no peer", () => {
    const { status, log } = recording([
      "bin/graphspec.js",
      "validate",
      "graphs/support-triage.yaml",
    ]);
    expect(status).toBe(0);
    const ours = [...new Set(log.map((r) => fromRoot(r.url)).filter((f) => f.startsWith("dist/")))];
    expect(ours.sort()).toEqual(["dist/cli/code-cache.js", "dist/cli/validate-script.js"]);
    expect(log.filter(isLangChain).map((r) => fromRoot(r.url))).toEqual([]);
    expect(log.filter((r) => PEER_FILE.test(fromRoot(r.url))).map((r) => r.url)).toEqual([]);
  });

  it("validate's script holds the validate path and no LangChain nor optional peer", () => {
    const { sources } = JSON.parse(
      readFileSync(join(ROOT, "dist/cli/validate.cjs.map"), "utf8"),
    ) as { sources: string[] };
    // Its sources go through tsc's maps to src/ (not vacuous: the check itself is there).
    expect(sources.some((f) => f.endsWith("src/check/validate.ts"))).toBe(true);
    expect(sources.filter((f) => LANGCHAIN_FILE.test(f) || PEER_FILE.test(f))).toEqual([]);
  });
});
