/**
 * The PostgreSQL checkpointer when the database misbehaves under it: a pooled connection the server
 * ends does not take the process down (node-postgres emits `error` on the pool, and an `error` event
 * nobody listens to is thrown), and executors opening a fresh database at the same moment do not
 * trip over each other making its tables.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";
import { freshDatabase, serverUrl } from "../support/postgres.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-pg-resilience-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
writeFileSync(
  join(dir, "graphs", "ask.yaml"),
  `version: 1
name: ask
state:
  sent: { type: boolean, default: false }
nodes:
  ask:
    kind: interrupt
    payload: { question: "Send it?" }
    schema: { type: boolean }
    write: sent
edges:
  - { from: START, to: ask }
  - { from: ask, to: END }
`,
);

/** Ends every other session on `database` from the server side, as a restart or an admin would. */
async function endSessions(database: string): Promise<number> {
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
      [database],
    );
    return rows.length;
  } finally {
    await admin.end();
  }
}

describe.skipIf(!serverUrl())("the postgres checkpointer when the database misbehaves", () => {
  it("pooled connections the server ends (checkpointer and store) do not crash the process; the next run works", async () => {
    const databaseUrl = await freshDatabase("resilience_ended");
    const exec = createExecutor({
      dir: join(dir, "graphs"),
      checkpointer: "postgres",
      store: "postgres",
      databaseUrl,
    });
    try {
      const paused = await exec.run("ask", { threadId: "t1" });
      expect(paused.status).toBe("interrupted");
      expect(await endSessions("resilience_ended")).toBeGreaterThan(0);
      // Give the pool's idle clients time to see their sockets close (and emit `error`).
      await new Promise((r) => setTimeout(r, 300));
      const done = await exec.resume("ask", { threadId: "t1", value: true });
      expect(done.status).toBe("completed");
      expect(done.output).toMatchObject({ sent: true });
    } finally {
      await exec.close();
    }
  });

  it("executors opening a fresh database at the same moment all make it (tables made once)", async () => {
    const databaseUrl = await freshDatabase("resilience_setup");
    const execs = Array.from({ length: 4 }, () =>
      createExecutor({
        dir: join(dir, "graphs"),
        checkpointer: "postgres",
        store: "postgres",
        databaseUrl,
      }),
    );
    try {
      const results = await Promise.all(
        execs.map((exec, i) => exec.run("ask", { threadId: `t${i}` })),
      );
      expect(results.map((r) => r.error?.message ?? r.status)).toEqual(
        Array(4).fill("interrupted"),
      );
    } finally {
      await Promise.all(execs.map((e) => e.close()));
    }
  });
});
