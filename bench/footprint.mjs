#!/usr/bin/env node
/**
 * What does installing graphspec cost, per use? Run with `npm run bench:footprint` (it builds and
 * packs the package itself). See bench/README.md.
 *
 * The package is packed (`npm pack`, as it would be published) and installed into a fresh app in a
 * temp dir for each use, as a user would (`npm install --prefer-offline --no-audit --no-fund`):
 *
 *   compile-only  the tarball alone; a program calls compile() and createExecutor({ checkpointer:
 *                 "memory" }) and runs a graph with a scripted model
 *   ci-validate   the tarball alone; `npx graphspec validate graphs`
 *   dev-serve     the tarball + hono, @hono/node-server, chokidar and
 *                 @langchain/langgraph-checkpoint-sqlite (which builds better-sqlite3 when no
 *                 prebuilt binary is reachable); the program runs on the SQLite checkpointer
 *   before        the last release's layout: the same tarball with 77ce391's package.json
 *                 dependencies (everything a dependency, @langchain/langgraph-sdk ^2 too); the
 *                 compile-only program. Skipped with --no-before or without git.
 *
 * For each: npm install's wall time; node_modules' size (the bytes of its files, a hard-linked
 * file once, as `du -sb` counts; MB = 10^6 bytes); the packages npm added; the
 * @langchain/langgraph-sdk versions in the tree; whether a native addon was compiled (a
 * `build/config.gypi` left by node-gyp) and which packages hold native binaries (`*.node`,
 * prebuilt or compiled); npm's deprecated / EBADENGINE warnings; whether the use's program worked.
 *
 * The cache: an untimed install of every package the uses need (scripts off) runs first, so the
 * timed installs find npm's cache warm and, with --prefer-offline, do not revalidate with the
 * registry: the times are unpacking, linking and install scripts (a native build), not the network.
 * A cold cache adds the download of the same packages.
 *
 * Options: --no-before, --keep (keep the temp dir and print it).
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { benchOptions } from "./options.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The graph each use runs (test/package-install.test.ts installs and runs the same one). */
const GREET_SPEC = join(ROOT, "test/fixtures/install/greet.yaml");
const BEFORE_COMMIT = "77ce391";
const DEV_SERVE_PEERS = [
  "hono",
  "@hono/node-server",
  "chokidar",
  "@langchain/langgraph-checkpoint-sqlite",
];
const INSTALL_FLAGS = ["--prefer-offline", "--no-audit", "--no-fund"];
const { values: opts } = benchOptions(import.meta.url, {
  "no-before": { type: "boolean", default: false },
  keep: { type: "boolean", default: false },
});

const tmp = mkdtempSync(join(tmpdir(), "graphspec-footprint-"));
// This environment without the `npm_*` variables `npm run` sets, which would point the apps' npm
// at this repository.
const ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("npm_")));

/** A command that must succeed; its output. */
function must(cmd, args, cwd, env = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", env: { ...ENV, ...env } });
  if (r.status !== 0) {
    throw new Error(
      `${cmd} ${args.join(" ")} in ${cwd} exited ${r.status}:\n${r.stdout}${r.stderr}`,
    );
  }
  return r.stdout;
}

/** `npm pack` of `dir` into `dest`: the tarball's path. Scripts off: the caller built it. */
function pack(dir, dest) {
  mkdirSync(dest, { recursive: true });
  const out = JSON.parse(
    must("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dest], dir),
  );
  return join(dest, out[0].filename);
}

/** The current tarball with the last release's dependencies: the layout before issue 21. */
function beforeTarball(tarball) {
  const old = spawnSync("git", ["show", `${BEFORE_COMMIT}:package.json`], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (old.status !== 0) return undefined;
  const unpacked = join(tmp, "before-pkg");
  mkdirSync(unpacked);
  must("tar", ["-xzf", tarball, "-C", unpacked], ROOT);
  const dir = join(unpacked, "package");
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  pkg.dependencies = JSON.parse(old.stdout).dependencies;
  delete pkg.peerDependencies;
  delete pkg.peerDependenciesMeta;
  writeFileSync(join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  return pack(dir, join(tmp, "before-tgz"));
}

// compile() on its own, then the executor on the checkpointer CHECKPOINTER names.
const PROGRAM = `import { compile, createExecutor } from "graphspec";
const scripts = { greeter: ["Hello, Ada."] };
const graph = await compile("graphs/greet.yaml", { scripts });
const direct = await graph.invoke({ name: "Ada" });
const checkpointer = process.env.CHECKPOINTER;
const exec = createExecutor({ dir: "graphs", checkpointer, sqlitePath: "state.db", scripts });
const run = await exec.run("greet", { input: { name: "Ada" } });
await exec.close();
if (direct.reply !== "Hello, Ada." || run.output.reply !== "Hello, Ada.") process.exit(1);
`;

/** A fresh app holding a spec and the program. */
function freshApp(name) {
  const dir = join(tmp, name);
  mkdirSync(join(dir, "graphs"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  copyFileSync(GREET_SPEC, join(dir, "graphs", "greet.yaml"));
  writeFileSync(join(dir, "main.mjs"), PROGRAM);
  return dir;
}

/** Every file under `dir` (symlinks not followed): [path, size], a hard-linked file's size once. */
function* files(dir, seen = new Set()) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* files(p, seen);
    else if (e.isFile()) {
      const st = lstatSync(p);
      const id = `${st.dev}:${st.ino}`;
      yield [p, seen.has(id) ? 0 : st.size];
      seen.add(id);
    }
  }
}

/** The package a path in node_modules belongs to: `…/node_modules/@a/b/x` → `@a/b`. */
function packageOf(nodeModules, path) {
  const parts = relative(nodeModules, path).split(sep);
  const i = parts.lastIndexOf("node_modules");
  const rest = parts.slice(i + 1);
  return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
}

/** Size, native builds and binaries of an app's node_modules. */
function survey(app) {
  const nm = join(app, "node_modules");
  let bytes = 0;
  const compiled = new Set();
  const binaries = new Set();
  for (const [p, size] of files(nm)) {
    bytes += size;
    if (p.endsWith(`${sep}build${sep}config.gypi`)) compiled.add(packageOf(nm, p));
    if (p.endsWith(".node")) binaries.add(packageOf(nm, p));
  }
  return { bytes, compiled: [...compiled].sort(), binaries: [...binaries].sort() };
}

/** The versions of `name` anywhere in `npm ls --all --json`'s tree. */
function versionsIn(app, name) {
  const r = spawnSync("npm", ["ls", "--all", "--json"], { cwd: app, encoding: "utf8", env: ENV });
  const found = new Set();
  const walk = (deps = {}) => {
    for (const [n, d] of Object.entries(deps)) {
      if (n === name && d.version) found.add(d.version);
      walk(d.dependencies);
    }
  };
  walk(JSON.parse(r.stdout).dependencies);
  return [...found].sort();
}

/** Installs `specs` into a fresh app, times it, surveys it, runs `check`. */
function measure(use, specs, check) {
  const app = freshApp(use.replace(/[^a-z0-9-]+/g, "-")); // node-gyp fails on a path with spaces
  const t0 = performance.now();
  const r = spawnSync("npm", ["install", ...INSTALL_FLAGS, ...specs], {
    cwd: app,
    encoding: "utf8",
    env: ENV,
  });
  const seconds = (performance.now() - t0) / 1000;
  const out = r.stdout + r.stderr;
  if (r.status !== 0) throw new Error(`npm install for ${use} failed:\n${out}`);
  const checked = spawnSync(check[0], check.slice(1), {
    cwd: app,
    encoding: "utf8",
    env: { ...ENV, NO_COLOR: "1", CHECKPOINTER: use === "dev-serve" ? "sqlite" : "memory" },
  });
  return {
    use,
    seconds,
    ...survey(app),
    added: Number(/added (\d+) package/.exec(out)?.[1] ?? Number.NaN),
    sdks: versionsIn(app, "@langchain/langgraph-sdk"),
    deprecated: out.split("\n").filter((l) => l.includes("npm warn deprecated")).length,
    badEngine: out.split("\n").filter((l) => l.includes("EBADENGINE Unsupported engine")).length,
    works:
      checked.status === 0
        ? "yes"
        : `NO (exit ${checked.status}: ${checked.stderr.trim().split("\n")[0]})`,
  };
}

must("npm", ["run", "build"], ROOT);
const tarball = pack(ROOT, join(tmp, "tgz"));
const before = opts["no-before"] ? undefined : beforeTarball(tarball);

// Warm npm's cache with every package below, untimed (scripts off: nothing is built here).
const warm = freshApp("warm-cache");
must("npm", ["install", ...INSTALL_FLAGS, "--ignore-scripts", tarball, ...DEV_SERVE_PEERS], warm);
if (before)
  must("npm", ["install", ...INSTALL_FLAGS, "--ignore-scripts", before], freshApp("warm-before"));

const rows = [
  measure("compile-only", [tarball], ["node", "main.mjs"]),
  measure("ci-validate", [tarball], ["npx", "graphspec", "validate", "graphs"]),
  measure("dev-serve", [tarball, ...DEV_SERVE_PEERS], ["node", "main.mjs"]),
];
if (before) rows.push(measure(`before (${BEFORE_COMMIT})`, [before], ["node", "main.mjs"]));

const mb = (b) => (b / 1e6).toFixed(1);
console.log(
  `\ngraphspec install footprint — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
    `npm ${must("npm", ["--version"], ROOT).trim()}, ${process.platform}-${process.arch}, npm cache warm (--prefer-offline)\n`,
);
const table = [
  [
    "use",
    "install (s)",
    "node_modules (MB)",
    "bytes",
    "packages",
    "native build",
    "native binaries",
    "SDK versions",
    "deprecated",
    "EBADENGINE",
    "works",
  ],
  ...rows.map((r) => [
    r.use,
    r.seconds.toFixed(1),
    mb(r.bytes),
    String(r.bytes),
    String(r.added),
    r.compiled.join(", ") || "none",
    r.binaries.join(", ") || "none",
    r.sdks.join(", "),
    String(r.deprecated),
    String(r.badEngine),
    r.works,
  ]),
];
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
const line = (row) => `| ${row.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
console.log(line(table[0]));
console.log(line(widths.map((w) => "-".repeat(w))));
for (const row of table.slice(1)) console.log(line(row));

if (opts.keep) console.log(`\nkept ${tmp}`);
else rmSync(tmp, { recursive: true, force: true });
