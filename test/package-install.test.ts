/**
 * The package as a user's npm installs it (issue 21): the build is packed (`npm pack`, `npm run
 * build` first) and installed with `@langchain/langgraph-sdk@latest` into a fresh app, once for
 * the file: `npm install --prefer-offline --no-audit --no-fund` (npm's cache is warm from this
 * repository's own install; what is missing comes from the registry).
 *
 * npm runs with `process.version` set to the minimum of package.json's `engines.node` (a
 * `--require` preload), so its EBADENGINE check is the one a user on that Node gets.
 *
 * Then, without any optional peer installed: what compile-only programs and CI use works, nothing
 * of the server, drawing, type-generation or checkpointer stacks is in the tree, nothing was
 * compiled; and a command that needs a peer exits 2 naming the packages to install.
 */
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
/** The graph every use runs (bench/footprint.mjs installs and runs the same one). */
const GREET_SPEC = join(ROOT, "test/fixtures/install/greet.yaml");
const PKG = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  engines: { node: string };
};
const dir = mkdtempSync(join(tmpdir(), "graphspec-install-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }), 60_000); // node_modules: many files
const app = join(dir, "app");
const INSTALL_MS = 240_000;

/** This process's environment without npm's `npm_*` variables (from `npm test`), which would
 * point the app's npm at this repository. */
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("npm_")));

function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  timeout = INSTALL_MS,
) {
  return spawnSync(cmd, args, {
    cwd,
    encoding: "utf8",
    env: { ...cleanEnv(), NO_COLOR: "1", ...env },
    timeout,
  }) as SpawnSyncReturns<string>;
}

/** `graphspec …` in the app, as its own npx finds it (never a download). */
const graphspec = (...args: string[]) => run("npx", ["--no", "graphspec", ...args], app);

/** `>=20.19` → `v20.19.0`: the oldest Node package.json promises to work on. */
function minimumNode(range: string): string {
  const m = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (!m) throw new Error(`engines.node is not of the form >=X.Y.Z: ${range}`);
  return `v${m[1]}.${m[2] ?? 0}.${m[3] ?? 0}`;
}

const FIXTURE = `tests:
  - name: greets by name
    input: { name: Ada }
    scripts:
      greeter: ["Hello, Ada."]
    expect:
      output: { reply: "Hello, Ada." }
`;

let installOutput = "";

beforeAll(() => {
  expect(existsSync(join(ROOT, "dist", "index.js")), "run `npm run build` first").toBe(true);
  const packed = run(
    "npm",
    ["pack", "--ignore-scripts", "--json", "--pack-destination", dir],
    ROOT,
  );
  expect(packed.status, packed.stderr).toBe(0);
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  const tarball = join(dir, filename);

  mkdirSync(join(app, "graphs"), { recursive: true });
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({ name: "app", private: true, type: "module" }),
  );
  copyFileSync(GREET_SPEC, join(app, "graphs", "greet.yaml"));
  writeFileSync(join(app, "graphs", "greet.test.yaml"), FIXTURE);
  const preload = join(dir, "node-version.cjs");
  writeFileSync(
    preload,
    'Object.defineProperty(process, "version", { value: process.env.GRAPHSPEC_NODE_VERSION });\n',
  );

  const installed = run(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      tarball,
      "@langchain/langgraph-sdk@latest",
    ],
    app,
    { NODE_OPTIONS: `--require=${preload}`, GRAPHSPEC_NODE_VERSION: minimumNode(PKG.engines.node) },
  );
  installOutput = installed.stdout + installed.stderr;
  expect(installed.status, installOutput).toBe(0);
}, INSTALL_MS);

/** Every package installed in `npm ls --all --json`'s tree: name → versions. (A missing optional
 * peer is listed too, as `{}`: it has no version, and is left out.) */
function tree(): Map<string, Set<string>> {
  const ls = run("npm", ["ls", "--all", "--json"], app);
  expect(ls.status, ls.stdout + ls.stderr).toBe(0);
  const found = new Map<string, Set<string>>();
  type Deps = Record<string, { version?: string; dependencies?: Deps }>;
  const walk = (deps: Deps = {}) => {
    for (const [name, d] of Object.entries(deps)) {
      if (d.version) found.set(name, (found.get(name) ?? new Set()).add(d.version));
      walk(d.dependencies);
    }
  };
  walk((JSON.parse(ls.stdout) as { dependencies: Deps }).dependencies);
  return found;
}

/** Every file under `path`, relative to it. */
function filesUnder(path: string): string[] {
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(path.length + 1));
}

describe("installed from the tarball with the SDK's latest", () => {
  it("has one @langchain/langgraph-sdk in the tree", () => {
    const sdk = tree().get("@langchain/langgraph-sdk");
    expect([...(sdk ?? [])]).toHaveLength(1);
  });

  it("installs with no deprecated package and no EBADENGINE on the minimum Node", () => {
    expect(installOutput).not.toMatch(/npm warn deprecated/i);
    expect(installOutput).not.toMatch(/EBADENGINE/);
  });

  it("pulls none of the optional stacks: server, drivers, drawing, type generation", () => {
    const names = [...tree().keys()];
    const optional = [
      "hono",
      "@hono/node-server",
      "chokidar",
      "@langchain/langgraph-checkpoint-sqlite",
      "better-sqlite3",
      "@langchain/langgraph-checkpoint-postgres",
      "pg",
      "@dagrejs/dagre",
      "@resvg/resvg-js",
      "json-schema-to-typescript",
      "prettier",
    ];
    expect(names.filter((n) => optional.includes(n))).toEqual([]);
  });

  it("built nothing native: no node-gyp build, no .node binary", () => {
    const native = filesUnder(join(app, "node_modules")).filter(
      (f) => f.endsWith(".node") || f.endsWith("config.gypi") || f.endsWith("binding.gyp"),
    );
    expect(native).toEqual([]);
  });
});

describe("what a compile-only program and a CI job use works without the optional peers", () => {
  it("compile() and createExecutor on the memory checkpointer run a scripted graph", () => {
    writeFileSync(
      join(app, "main.mjs"),
      `import { compile, createExecutor } from "graphspec";
const scripts = { greeter: ["Hello, Ada."] };
const graph = await compile("graphs/greet.yaml", { scripts });
const direct = await graph.invoke({ name: "Ada" });
const exec = createExecutor({ dir: "graphs", checkpointer: "memory", scripts });
const result = await exec.run("greet", { input: { name: "Ada" } });
await exec.close();
console.log(JSON.stringify({ direct: direct.reply, status: result.status, output: result.output }));
`,
    );
    const r = run(process.execPath, ["main.mjs"], app);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      direct: "Hello, Ada.",
      status: "completed",
      output: { reply: "Hello, Ada." },
    });
  });

  it("npx graphspec validate passes on a spec", () => {
    const r = graphspec("validate", "graphs");
    expect(r.stdout + r.stderr).toContain("1 file valid");
    expect(r.status).toBe(0);
  });

  it("npx graphspec test runs a fixture", () => {
    const r = graphspec("test", "graphs");
    expect(r.status, r.stdout + r.stderr).toBe(0);
  });

  it("npx graphspec run on the memory checkpointer completes", () => {
    const r = graphspec(
      "run",
      "greet",
      "--checkpointer",
      "memory",
      "--input",
      '{"name":"Ada"}',
      "--scripts",
      '{"greeter":["Hello, Ada."]}',
    );
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("Hello, Ada.");
  });

  it("npx graphspec draw prints Mermaid text without the drawing stack", () => {
    const r = graphspec("draw", "graphs/greet.yaml");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^flowchart/m);
  });
});

/** `text` names package `name` as a word of its own (`hono`, not the `hono` in `@hono/node-server`). */
function namesPackage(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`(?<![\\w@/-])${escaped}(?![\\w/-])`).test(text);
}

describe("a command that needs an optional peer says which packages to install", () => {
  // Each: the command, then the packages its message must name (README.md, "Install footprint").
  const cases: [string[], string[]][] = [
    [
      ["serve", "graphs", "--no-auth", "--port", "0", "--host", "127.0.0.1"],
      ["hono", "@hono/node-server"],
    ],
    [
      ["dev", "graphs", "--port", "0", "--host", "127.0.0.1"],
      ["hono", "@hono/node-server", "chokidar"],
    ],
    [["draw", "graphs/greet.yaml", "--format", "svg"], ["@dagrejs/dagre"]],
    [["draw", "graphs/greet.yaml", "--format", "png", "--out", "greet.png"], ["@resvg/resvg-js"]],
    [["types", "graphs", "-o", "types"], ["json-schema-to-typescript"]],
    [
      ["run", "greet", "--checkpointer", "sqlite", "--input", '{"name":"Ada"}'],
      ["@langchain/langgraph-checkpoint-sqlite"],
    ],
    [
      ["run", "greet", "--checkpointer", "postgres", "--input", '{"name":"Ada"}'],
      ["@langchain/langgraph-checkpoint-postgres", "pg"],
    ],
  ];
  it.each(cases)("graphspec %j names %j, exit 2, no stack trace", (args, packages) => {
    // A server that starts after all would be killed here, and fail the test, not hang it.
    const r = run(
      "npx",
      ["--no", "graphspec", ...args],
      app,
      { DATABASE_URL: "postgres://graphspec@127.0.0.1:1/none" },
      20_000,
    );
    for (const p of packages) expect(namesPackage(r.stderr, p), `${p} in:\n${r.stderr}`).toBe(true);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stderr).not.toContain("internal error");
    expect(r.status).toBe(2);
  });
});
