/**
 * `maxStateBytes` stops the run, not just storage: a looping append graph whose state passes the
 * limit fails `state-too-large` at that step, and no step runs after it — counted by the side
 * effect of a function node (a line appended to a file per step it ran). Before, the loop went on
 * computing in memory with its side effects (2,000 steps ran, 10 stored). Through the package
 * entry's executor and over HTTP with the official SDK; the last good checkpoint stays readable
 * and the thread goes on from it with a larger limit.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { CheckpointerError, createExecutor, folderCatalog, startServer } from "../../src/index.js";
import { freshDatabase, serverUrl } from "../support/postgres.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-state-stop-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
mkdirSync(join(dir, "graphs"));
mkdirSync(join(dir, "nodes"));
const sideEffects = join(dir, "side-effects.log");
writeFileSync(
  join(dir, "nodes", "grow.js"),
  `import { appendFileSync } from "node:fs";
// One line per step that ran: the side effect a runaway loop must not go on having.
export default (state, runtime) => {
  appendFileSync(${JSON.stringify(sideEffects)}, runtime.configurable.thread_id + " " + state.n + "\\n");
  return { log: ["y".repeat(runtime.context.chunk)], n: state.n + 1 };
};
`,
);
writeFileSync(
  join(dir, "graphs", "loop.yaml"),
  `version: 1
name: loop
state:
  log: { type: array, items: { type: string }, reducer: append, default: [] }
  n: { type: integer, default: 0 }
context:
  chunk: { type: integer }
limits: { recursion: 2000 }
nodes:
  grow: { kind: function, module: ../nodes/grow.js, writes: [log, n] }
edges:
  - { from: START, to: grow }
  - from: grow
    route:
      - { when: "state.n >= 20", to: END }
      - { default: grow }
`,
);

const KiB = 1024;
const LIMIT = 64 * KiB;
const CHUNK = 8 * KiB;
/** The steps of `threadId` that ran, by the function node's side effect. */
const stepsRan = (threadId: string) =>
  readFileSync(sideEffects, "utf8")
    .split("\n")
    .filter((l) => l.startsWith(`${threadId} `)).length;

describe("a state over maxStateBytes stops the run at that step", () => {
  it("through the package entry's executor: no step runs after the one that passed the limit", async () => {
    const sqlitePath = join(dir, "exec.db");
    const exec = createExecutor({ dir: join(dir, "graphs"), sqlitePath, maxStateBytes: LIMIT });
    const r = await exec.run("loop", { threadId: "t-exec", context: { chunk: CHUNK } });
    expect(r.error).toMatchObject({ code: "state-too-large", phase: "run" });
    // The state passes 64 KiB at the 8th step (8 × 8 KiB plus the JSON around them): that step
    // ran, the next did not.
    const ran = stepsRan("t-exec");
    expect(ran).toBeGreaterThanOrEqual(7);
    expect(ran).toBeLessThanOrEqual(9);
    // The last good checkpoint is the step before the refused one.
    const kept = await exec.inspect("t-exec", "loop");
    expect(kept?.output.n).toBe(ran - 1);
    expect(kept?.next).toEqual(["grow"]);
    await exec.close();
    // It goes on from there with a larger limit (the refused step runs again, then the rest).
    const roomier = createExecutor({
      dir: join(dir, "graphs"),
      sqlitePath,
      maxStateBytes: 64 * 1024 * KiB,
    });
    const on = await roomier.resume("loop", { threadId: "t-exec" });
    expect(on.status).toBe("completed");
    expect(on.output.n).toBe(20);
    await roomier.close();
  });

  it("over HTTP: the run fails state-too-large and the loop stops there", async () => {
    const sqlitePath = join(dir, "server.db");
    const exec = createExecutor({ dir: join(dir, "graphs"), sqlitePath, maxStateBytes: LIMIT });
    const server = await startServer({
      exec,
      graphs: await folderCatalog(join(dir, "graphs")),
      auth: undefined,
      port: 0,
      records: { sqlite: sqlitePath },
    });
    try {
      const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
      const thread = await client.threads.create({ threadId: "t-http" });
      // The SDK's runs.wait throws the run's error.
      const failed = await client.runs
        .wait(thread.thread_id, "loop", { context: { chunk: CHUNK } } as never)
        .then(
          () => undefined,
          (e: unknown) => e as Error,
        );
      expect(failed?.message).toMatch(/^state-too-large: the state would be/);
      const ran = stepsRan("t-http");
      expect(ran).toBeGreaterThanOrEqual(7);
      expect(ran).toBeLessThanOrEqual(9);
      const state = await client.threads.getState(thread.thread_id);
      expect((state.values as { n: number }).n).toBe(ran - 1);
    } finally {
      await server.close(1000);
    }
  });
});

describe("on a checkpointer of the user's own", () => {
  it("one with a `pool` of its own is not taken for PostgreSQL: its refused step's writes go, its pool is not asked", async () => {
    const queries: unknown[] = [];
    // A user's saver that also keeps a pool of some kind (a cache, another database).
    class PooledSaver extends MemorySaver {
      pool = { query: async (...args: unknown[]) => queries.push(args) };
    }
    const exec = createExecutor({
      dir: join(dir, "graphs"),
      checkpointer: new PooledSaver(),
      maxStateBytes: LIMIT,
    });
    try {
      const r = await exec.run("loop", { threadId: "t-pooled", context: { chunk: CHUNK } });
      expect(r.error).toMatchObject({ code: "state-too-large" });
      const ran = stepsRan("t-pooled");
      const kept = await exec.inspect("t-pooled", "loop");
      expect(kept?.output.n).toBe(ran - 1);
      expect(kept?.next).toEqual(["grow"]);
      expect(queries).toEqual([]);
    } finally {
      await exec.close();
    }
  });

  it("a SqliteSaver of the user's own (a subclass): taken for SQLite, its refused step's writes go", async () => {
    class TeamSaver extends SqliteSaver {}
    const saver = new TeamSaver(SqliteSaver.fromConnString(":memory:").db);
    const exec = createExecutor({
      dir: join(dir, "graphs"),
      checkpointer: saver,
      maxStateBytes: LIMIT,
    });
    try {
      const r = await exec.run("loop", { threadId: "t-team", context: { chunk: CHUNK } });
      expect(r.error).toMatchObject({ code: "state-too-large" });
      const ran = stepsRan("t-team");
      expect(ran).toBeLessThanOrEqual(9);
      // The thread stands before the refused step: its writes were deleted from the database.
      const kept = await exec.inspect("t-team", "loop");
      expect(kept?.output.n).toBe(ran - 1);
      expect(kept?.next).toEqual(["grow"]);
    } finally {
      await exec.close();
    }
  });

  it("one object for two executors: bounded by the first's limits, refused to a second with others", async () => {
    const saver = SqliteSaver.fromConnString(":memory:");
    const options = { dir: join(dir, "graphs"), checkpointer: saver };
    const first = createExecutor({ ...options, maxStateBytes: LIMIT });
    const same = createExecutor({ ...options, maxStateBytes: LIMIT });
    const roomier = createExecutor({ ...options, maxStateBytes: 4 * LIMIT });
    const otherThread = createExecutor({ ...options, maxStateBytes: LIMIT, maxThreadBytes: LIMIT });
    try {
      expect(
        (await first.run("loop", { threadId: "t-one", context: { chunk: CHUNK } })).error,
      ).toMatchObject({ code: "state-too-large" });
      // The same limits: the one wrapping serves both.
      expect(
        (await same.run("loop", { threadId: "t-same", context: { chunk: CHUNK } })).error,
      ).toMatchObject({ code: "state-too-large" });
      for (const [exec, theirs] of [
        [roomier, "maxStateBytes 262,144, maxThreadBytes 67,108,864"],
        [otherThread, "maxStateBytes 65,536, maxThreadBytes 65,536"],
      ] as const) {
        const refused = await exec
          .run("loop", { threadId: "t-other", context: { chunk: CHUNK } })
          .catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(CheckpointerError);
        expect((refused as CheckpointerError).message).toBe(
          `this checkpointer object is bounded by another executor (maxStateBytes 65,536, maxThreadBytes 67,108,864), not by this one's (${theirs})`,
        );
        expect((refused as CheckpointerError).hint).toMatch(/a checkpointer object of its own/);
      }
      // Nothing of the refused runs ran, and the refusals wrapped the object no further.
      expect(stepsRan("t-other")).toBe(0);
      const wrapped = [saver.put, saver.putWrites];
      await roomier.run("loop", { threadId: "t-other", context: { chunk: CHUNK } }).catch(() => {});
      expect([saver.put, saver.putWrites]).toEqual(wrapped);
    } finally {
      for (const exec of [first, same, roomier, otherThread]) await exec.close();
    }
  });

  it("one with a `db` of its own is not taken for SQLite: its refused step's writes go, its db is not asked", async () => {
    const asked: string[] = [];
    // A user's saver that also keeps a database handle of some kind.
    class DbSaver extends MemorySaver {
      db = {
        prepare: (sql: string) => {
          asked.push(sql);
          return { run: () => undefined, all: () => [], get: () => undefined };
        },
      };
    }
    const exec = createExecutor({
      dir: join(dir, "graphs"),
      checkpointer: new DbSaver(),
      maxStateBytes: LIMIT,
    });
    try {
      const r = await exec.run("loop", { threadId: "t-db", context: { chunk: CHUNK } });
      expect(r.error).toMatchObject({ code: "state-too-large" });
      const ran = stepsRan("t-db");
      const kept = await exec.inspect("t-db", "loop");
      expect(kept?.output.n).toBe(ran - 1);
      expect(kept?.next).toEqual(["grow"]);
      expect(asked).toEqual([]);
    } finally {
      await exec.close();
    }
  });
});

describe.skipIf(!serverUrl())("on PostgreSQL", () => {
  it("a PostgresSaver of the user's own in a schema of its own: the refused step's writes go there", async () => {
    const databaseUrl = await freshDatabase("graphspec_state_stop_schema");
    const saver = PostgresSaver.fromConnString(databaseUrl, { schema: "team" });
    await saver.setup();
    const exec = createExecutor({
      dir: join(dir, "graphs"),
      checkpointer: saver,
      maxStateBytes: LIMIT,
    });
    try {
      const r = await exec.run("loop", { threadId: "t-schema", context: { chunk: CHUNK } });
      expect(r.error).toMatchObject({ code: "state-too-large" });
      const ran = stepsRan("t-schema");
      const kept = await exec.inspect("t-schema", "loop");
      expect(kept?.output.n).toBe(ran - 1);
      expect(kept?.next).toEqual(["grow"]);
    } finally {
      await exec.close();
      await saver.end();
    }
  });

  it("the run stops at the step that passed the limit there too, and the thread stands before it", async () => {
    const databaseUrl = await freshDatabase("graphspec_state_stop");
    const exec = createExecutor({
      dir: join(dir, "graphs"),
      checkpointer: "postgres",
      databaseUrl,
      maxStateBytes: LIMIT,
    });
    try {
      const r = await exec.run("loop", { threadId: "t-pg", context: { chunk: CHUNK } });
      expect(r.error).toMatchObject({ code: "state-too-large" });
      const ran = stepsRan("t-pg");
      expect(ran).toBeGreaterThanOrEqual(7);
      expect(ran).toBeLessThanOrEqual(9);
      const kept = await exec.inspect("t-pg", "loop");
      expect(kept?.output.n).toBe(ran - 1);
      expect(kept?.next).toEqual(["grow"]);
    } finally {
      await exec.close();
    }
  });
});
