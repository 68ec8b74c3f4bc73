/**
 * Crash safety: a run killed with SIGKILL in the middle of a multi-node run is resumed by a new
 * process from SQLite, and from PostgreSQL — every completed node ran once, none twice, and no
 * state is lost.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freshDatabase, serverUrl } from "../support/postgres.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
// Each step records that it started, waits, records that it finished (outside the graph), then
// returns its write.
writeFileSync(
  join(dir, "step.mjs"),
  `import { appendFileSync } from "node:fs";
export default async (state) => {
  const n = state.done.length + 1;
  appendFileSync(${JSON.stringify(join(dir, "side-effects.log"))}, "start " + n + "\\n");
  await new Promise((r) => setTimeout(r, 250));
  appendFileSync(${JSON.stringify(join(dir, "side-effects.log"))}, "step " + n + "\\n");
  return { done: [n] };
};
`,
);
const nodes = [1, 2, 3, 4, 5]
  .map((i) => `  s${i}: { kind: function, module: ../step.mjs }`)
  .join("\n");
const edges = [1, 2, 3, 4, 5]
  .map((i) => `  - { from: ${i === 1 ? "START" : `s${i - 1}`}, to: s${i} }`)
  .join("\n");
writeFileSync(
  join(dir, "graphs", "chain.yaml"),
  `version: 1
name: chain
state:
  done: { type: array, items: { type: integer }, reducer: append, default: [] }
nodes:
${nodes}
edges:
${edges}
  - { from: s5, to: END }
`,
);
const log = () =>
  existsSync(join(dir, "side-effects.log"))
    ? readFileSync(join(dir, "side-effects.log"), "utf8")
    : "";

const checkpointers = [
  { name: "SQLite", checkpointer: "sqlite", database: async () => ({}) },
  {
    name: "PostgreSQL",
    checkpointer: "postgres",
    database: async () => ({ DATABASE_URL: await freshDatabase("crash") }),
    skip: !serverUrl(),
  },
];

describe.each(checkpointers)("a run killed mid-way ($name)", ({ checkpointer, database, skip }) => {
  it.skipIf(skip)("resumes in a new process without running a finished node twice", async () => {
    rmSync(join(dir, "side-effects.log"), { force: true });
    const env = { ...process.env, ...(await database()) };
    const args = ["--thread", `crash-${checkpointer}`, "--checkpointer", checkpointer, "--json"];
    const child = spawn(process.execPath, [BIN, "run", "chain", ...args], {
      cwd: dir,
      stdio: "ignore",
      env,
    });
    // Wait until the third step has started, then kill the process in the middle of it. The run
    // checkpoints each step before the next starts (durability "sync"), so two steps are stored
    // by then; a fixed wait after step 2's side effect was not always enough under load.
    for (let waited = 0; !log().includes("start 3"); waited += 20) {
      if (waited > 20_000) throw new Error(`the run did not get to step 3; log: ${log()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill("SIGKILL");
    await new Promise((r) => child.on("exit", r));
    expect(log()).not.toContain("step 5");

    const resumed = spawnSync(process.execPath, [BIN, "resume", "chain", ...args], {
      cwd: dir,
      encoding: "utf8",
      env,
    });
    expect(resumed.status).toBe(0);
    const result = JSON.parse(resumed.stdout);
    expect(result).toMatchObject({ status: "completed", output: { done: [1, 2, 3, 4, 5] } });
    const lines = log()
      .trim()
      .split("\n")
      .filter((l) => l.startsWith("step "));
    // A step in progress when killed ran again (it had not finished); a finished one never did.
    expect(lines.filter((l) => l === "step 1")).toHaveLength(1);
    expect(lines.filter((l) => l === "step 2")).toHaveLength(1);
    expect(new Set(lines)).toEqual(new Set(["step 1", "step 2", "step 3", "step 4", "step 5"]));
    expect(lines.length).toBeLessThanOrEqual(6);
  });
});
