/**
 * The SQLite checkpointer's native module survives the garbage collector. LangGraph's SqliteSaver
 * prepares a better-sqlite3 Statement for most calls and drops it; V8 collects those later. A
 * better-sqlite3 12 built against Node 24.19+ headers aborts the whole process when it does
 * (nodejs/node#65446: `Assertion failed: (env) != nullptr` in `Statement::~Statement`), closed
 * databases or not — so this runs a long looping graph in a process of its own, through the
 * package entry, and expects it to finish. `.ci/run` builds the module for Node 24 accordingly.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const tmp = mkdtempSync(join(tmpdir(), "graphspec-sqlite-gc-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
mkdirSync(join(tmp, "graphs"));
writeFileSync(
  join(tmp, "graphs", "count.yaml"),
  `version: 1
name: count
state:
  n: { type: integer, reducer: sum, default: 0 }
nodes:
  add: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: add }
  - from: add
    route:
      - { when: "state.n < 150", to: add }
      - { default: END }
limits: { recursion: 400 }
`,
);

it("statements the SQLite checkpointer drops are collected without aborting the process", () => {
  const source = `
    import { createExecutor } from "graphspec";
    const exec = createExecutor({
      dir: process.env.GRAPHSPEC_TMP + "/graphs",
      checkpointer: "sqlite",
      sqlitePath: process.env.GRAPHSPEC_TMP + "/state.db",
    });
    const results = [];
    for (let i = 0; i < 2; i++) results.push((await exec.run("count")).output.n);
    await exec.close();
    console.log(JSON.stringify(results));
  `;
  // A small young generation: V8 collects (and runs the Statements' destructors) every few steps.
  const r = spawnSync(
    process.execPath,
    ["--max-semi-space-size=1", "--input-type=module", "-e", source],
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, GRAPHSPEC_TMP: tmp } },
  );
  expect(r.stderr, r.stderr).toBe("");
  expect(r.signal).toBe(null);
  expect(r.status).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual([150, 150]);
}, 120_000);
