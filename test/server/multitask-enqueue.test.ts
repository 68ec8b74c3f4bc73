/**
 * `multitask_strategy: "enqueue"` through the official SDK: a run sent to a busy thread waits
 * behind the thread's runs, in the order they came, then runs — a background run (`runs.create`,
 * what the SDK's UI orchestrator sends for a message typed during a run), or one streamed or
 * waited for, whose client gets its events live once it runs. A queued run cancelled before its
 * turn never runs; `reject` still refuses while a run is queued. With the records in SQLite (as
 * `graphspec serve` keeps them), in PostgreSQL, and in memory (a server without records). The `gated` graph's node
 * waits until the test lets it go.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, type RunningServer, startServer } from "../../src/index.js";
import { gates, openGatesAfterEach } from "../support/gates.js";
import { freshDatabase } from "../support/postgres.js";
import { collect, GRAPHS, type Harness, startHarness } from "./harness.js";

let h: Harness;
let memory: RunningServer;
let postgres: RunningServer;
let dir: string;
beforeAll(async () => {
  h = await startHarness();
  dir = mkdtempSync(join(tmpdir(), "graphspec-enqueue-"));
  const serverOver = async (name: string, records?: { postgres: string }) =>
    startServer({
      exec: createExecutor({ dir: GRAPHS, checkpointer: "sqlite", sqlitePath: join(dir, name) }),
      graphs: await folderCatalog(GRAPHS),
      port: 0,
      auth: undefined,
      ...(records ? { records } : {}),
    });
  memory = await serverOver("memory.db");
  postgres = await serverOver("pg.db", { postgres: await freshDatabase("enqueue") });
});
afterAll(async () => {
  await h?.stop();
  await memory?.close(1000);
  await postgres?.close(1000);
  rmSync(dir, { recursive: true, force: true });
});
openGatesAfterEach();

const servers: [string, () => Client][] = [
  ["records in SQLite", () => h.client()],
  ["records in memory", () => new Client({ apiUrl: memory.url, callerOptions: { maxRetries: 0 } })],
  [
    "records in PostgreSQL",
    () => new Client({ apiUrl: postgres.url, callerOptions: { maxRetries: 0 } }),
  ],
];

describe.each(servers)('multitask_strategy "enqueue" (%s)', (_, clientOf) => {
  /** A thread with a background run waiting at its gate. */
  async function busyThread() {
    const client = clientOf();
    const { thread_id } = await client.threads.create();
    const first = await client.runs.create(thread_id, "gated", { input: {} });
    await expect.poll(() => gates().length).toBe(1);
    return { client, thread_id, first };
  }
  const statusOf = (client: Client, thread: string, run: string) => async () =>
    (await client.runs.get(thread, run)).status;

  it("background runs wait behind the thread's run and run one at a time, in order", async () => {
    const { client, thread_id, first } = await busyThread();
    const enqueue = { input: {}, multitaskStrategy: "enqueue" as const };
    const second = await client.runs.create(thread_id, "gated", enqueue);
    const third = await client.runs.create(thread_id, "gated", enqueue);
    expect([second.status, third.status]).toEqual(["pending", "pending"]);
    expect(second.multitask_strategy).toBe("enqueue");

    gates().shift()!();
    await expect.poll(statusOf(client, thread_id, first.run_id)).toBe("success");
    await expect.poll(statusOf(client, thread_id, second.run_id)).toBe("running");
    expect(await statusOf(client, thread_id, third.run_id)()).toBe("pending");
    await expect.poll(() => gates().length).toBe(1);
    gates().shift()!();
    await expect.poll(statusOf(client, thread_id, third.run_id)).toBe("running");
    await expect.poll(() => gates().length).toBe(1);
    gates().shift()!();
    expect(await client.runs.join(thread_id, third.run_id)).toEqual({ done: true });
    expect(await statusOf(client, thread_id, second.run_id)()).toBe("success");
  });

  it("a streamed run waits its turn, then streams live; a waited-for one answers", async () => {
    const { client, thread_id } = await busyThread();
    const streamed = collect(
      client.runs.stream(thread_id, "gated", {
        input: {},
        multitaskStrategy: "enqueue",
        streamMode: ["values", "updates"],
      }),
    );
    await expect
      .poll(async () => (await client.runs.list(thread_id)).map((r) => r.status))
      .toEqual(["pending", "running"]);
    gates().shift()!();
    await expect.poll(() => gates().length).toBe(1);
    gates().shift()!();
    const events = await streamed;
    // `updates` events come only from the replica that runs it: followed live, not polled.
    expect(events.map((e) => e.event)).toContain("updates");
    expect(events.filter((e) => e.event === "values").at(-1)?.data).toEqual({ done: true });

    const again = await client.runs.create(thread_id, "gated", { input: {} });
    await expect.poll(() => gates().length).toBe(1);
    const waited = client.runs.wait(thread_id, "gated", {
      input: {},
      multitaskStrategy: "enqueue",
    });
    await expect.poll(statusOf(client, thread_id, again.run_id)).toBe("running");
    gates().shift()!();
    await expect.poll(() => gates().length).toBe(1);
    gates().shift()!();
    expect(await waited).toEqual({ done: true });
  });

  it("a queued run cancelled before its turn never runs; reject still refuses meanwhile", async () => {
    const { client, thread_id, first } = await busyThread();
    const queued = await client.runs.create(thread_id, "gated", {
      input: {},
      multitaskStrategy: "enqueue",
    });
    await expect(client.runs.wait(thread_id, "gated", { input: {} })).rejects.toThrow(/409/);
    await client.runs.cancel(thread_id, queued.run_id);
    expect(await statusOf(client, thread_id, queued.run_id)()).toBe("interrupted");
    gates().shift()!();
    await expect.poll(statusOf(client, thread_id, first.run_id)).toBe("success");
    await expect.poll(async () => (await client.threads.get(thread_id)).status).toBe("idle");
    expect(gates()).toHaveLength(0);
    expect(await statusOf(client, thread_id, queued.run_id)()).toBe("interrupted");
  });
});

describe('multitask_strategy "enqueue" and a thread held outside the server', () => {
  it("a queued run taken while another process runs its thread waits, then runs", async () => {
    // `graphspec run --thread` on the server's SQLite file: the thread's claim is held there, and
    // the server's records know nothing of it. The queued run is taken, refused by the claim, and
    // goes back to the queue until the thread is free.
    const sqlitePath = join(dir, "shared.db");
    const server = await startServer({
      exec: createExecutor({ dir: GRAPHS, checkpointer: "sqlite", sqlitePath }),
      graphs: await folderCatalog(GRAPHS),
      port: 0,
      auth: undefined,
      records: { sqlite: sqlitePath },
    });
    const outside = createExecutor({ dir: GRAPHS, checkpointer: "sqlite", sqlitePath });
    try {
      const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
      const { thread_id } = await client.threads.create();
      const held = outside.run("gated", { threadId: thread_id, input: {} });
      await expect.poll(() => gates().length).toBe(1);
      const queued = await client.runs.create(thread_id, "gated", {
        input: {},
        multitaskStrategy: "enqueue",
      });
      // Taken and given back while the thread is held: it stays queued, it does not fail.
      await new Promise((r) => setTimeout(r, 600));
      expect((await client.runs.get(thread_id, queued.run_id)).status).toBe("pending");
      gates().shift()!();
      expect((await held).status).toBe("completed");
      await expect.poll(() => gates().length, { timeout: 5000 }).toBe(1);
      gates().shift()!();
      expect(await client.runs.join(thread_id, queued.run_id)).toEqual({ done: true });
    } finally {
      // The run held outside ends (a failed expectation left it at its gate) before its executor closes.
      for (const open of gates().splice(0)) open();
      await outside.close();
      await server.close(1000);
    }
  });
});
