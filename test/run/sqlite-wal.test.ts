/**
 * The SQLite checkpointer folds its log (WAL) into the database file from a thread of its own
 * (src/run/sqlite-statements.ts), not at a commit on the thread that runs graphs: after a run
 * writes a 900 KB state — a quarter of what SQLite's default waits for before folding, at a commit —
 * the database file itself holds it soon after, with no further commit. Through createExecutor.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-wal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, "keep.yaml"),
  `version: 1
name: keep
state:
  blob: { type: string, default: "" }
  n: { type: integer, default: 0 }
nodes:
  one: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: one }
  - { from: one, to: END }
`,
);

it("a run's checkpoints reach the database file without another commit", async () => {
  const sqlitePath = join(dir, "state.db");
  const exec = createExecutor({ dir, checkpointer: "sqlite", sqlitePath });
  try {
    const r = await exec.run("keep", { threadId: "t", input: { blob: "b".repeat(900 * 1024) } });
    expect(r.error).toBeUndefined();
    // Folded within a poll or two (every second); waited for up to 20 s on a busy machine.
    let size = statSync(sqlitePath).size;
    for (let i = 0; i < 200 && size < 900 * 1024; i++) {
      await new Promise((res) => setTimeout(res, 100));
      size = statSync(sqlitePath).size;
    }
    expect(size).toBeGreaterThanOrEqual(900 * 1024);
  } finally {
    await exec.close();
  }
});
