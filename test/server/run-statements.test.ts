/**
 * What one run through the official SDK costs in SQLite statements, on a server with its
 * checkpoints and records in one file: nothing asked again that the server knows already (a table
 * that exists, a row it has just written), and no thread state read to learn whether the thread
 * has run. Counted in this process (the server runs here) on better-sqlite3's statements, which
 * the checkpointer and the records share.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createExecutor,
  type Executor,
  folderCatalog,
  type RunningServer,
  startServer,
} from "../../src/index.js";
import { GRAPHS } from "./harness.js";

type Method = (...args: unknown[]) => unknown;

/** Every statement better-sqlite3 runs in this process while `counting` is on, by its text. */
const ran: string[] = [];
let counting = false;
const require = createRequire(import.meta.url);
const Database = require("better-sqlite3") as new (
  file: string,
) => { prepare(sql: string): object; close(): void };
const probe = new Database(":memory:");
const statementProto = Object.getPrototypeOf(probe.prepare("SELECT 1")) as Record<string, Method>;
probe.close();
const originals = Object.fromEntries(
  ["run", "get", "all", "iterate"].map((m) => [m, statementProto[m]!]),
);
for (const [name, original] of Object.entries(originals))
  statementProto[name] = function (this: { source: string }, ...args: unknown[]) {
    if (counting) ran.push(this.source.replace(/\s+/g, " ").trim());
    return original.apply(this, args);
  };

async function counted(work: () => Promise<unknown>): Promise<string[]> {
  ran.length = 0;
  counting = true;
  try {
    await work();
  } finally {
    counting = false;
  }
  return [...ran];
}

const times = (statements: string[], pattern: RegExp) =>
  statements.filter((s) => pattern.test(s)).length;
/** LangGraph's SQLite saver reading a checkpoint with its writes (`getTuple`). */
const CHECKPOINT_READ = /^SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id/;

let dir: string;
let server: RunningServer;
let client: Client;
let local: Executor;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-run-statements-"));
  const sqlitePath = join(dir, "state.db");
  server = await startServer({
    exec: createExecutor({ dir: GRAPHS, checkpointer: "sqlite", sqlitePath }),
    graphs: await folderCatalog(GRAPHS),
    auth: undefined,
    records: { sqlite: sqlitePath },
  });
  client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
  local = createExecutor({
    dir: GRAPHS,
    checkpointer: "sqlite",
    sqlitePath: join(dir, "local.db"),
  });
  // Tables made, statements prepared: what every later run finds.
  await client.runs.wait(randomUUID(), "three-steps", { input: {}, ifNotExists: "create" });
  await local.run("three-steps", { threadId: randomUUID() });
});
afterAll(async () => {
  await server?.close(1000);
  await local?.close();
  for (const [name, original] of Object.entries(originals)) statementProto[name] = original;
  rmSync(dir, { recursive: true, force: true });
});

describe("SQLite statements of one run through the SDK", () => {
  const newThreadRun = () =>
    counted(() =>
      client.runs.wait(randomUUID(), "three-steps", { input: {}, ifNotExists: "create" }),
    );

  it("asks SQLite about its tables once, not on every run", async () => {
    expect((await newThreadRun()).filter((s) => /sqlite_master/.test(s))).toEqual([]);
  });

  it("reads a new thread's record once: the insert answers the row", async () => {
    expect(times(await newThreadRun(), /^SELECT \* FROM graphspec_server_threads/)).toBe(1);
  });

  it("writes the run's end without reading its record back", async () => {
    expect(times(await newThreadRun(), /^SELECT \* FROM graphspec_server_runs/)).toBe(0);
  });

  it("writes the run's end and its thread's time in one transaction: one commit, not two", async () => {
    const statements = await newThreadRun();
    const end = statements.findIndex((s) =>
      /^UPDATE graphspec_server_runs SET status = \?/.test(s),
    );
    expect(statements.slice(end - 1, end + 3)).toEqual([
      "BEGIN",
      expect.stringMatching(/^UPDATE graphspec_server_runs SET status = \?/),
      expect.stringMatching(/^UPDATE graphspec_server_threads SET updated_at/),
      "COMMIT",
    ]);
  });

  it("counts its tenant's running runs once (before the body is read), not again when it starts", async () => {
    const statements = await newThreadRun();
    expect(
      times(
        statements,
        /^SELECT COUNT\(\*\) AS n FROM graphspec_server_runs WHERE status = 'running'/,
      ),
    ).toBe(1);
  });

  it("a run on a thread that has run reads its checkpoints as the executor's own run does, and once more for the answer", async () => {
    const thread = randomUUID();
    await client.runs.wait(thread, "three-steps", { input: {}, ifNotExists: "create" });
    const overHttp = await counted(() => client.runs.wait(thread, "three-steps", { input: {} }));
    const mine = randomUUID();
    await local.run("three-steps", { threadId: mine });
    const inProcess = await counted(() => local.run("three-steps", { threadId: mine }));
    expect(times(overHttp, CHECKPOINT_READ)).toBe(times(inProcess, CHECKPOINT_READ) + 1);
  });
});
