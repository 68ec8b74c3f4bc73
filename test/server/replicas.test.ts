/**
 * Two `graphspec serve` processes (the built CLI) on one PostgreSQL, through the official SDK
 * Client: threads and runs started through one are read, joined, resumed and searched through the
 * other; background runs are queued in the database and each is run by one replica only; SIGTERM
 * hands a run in flight back to the queue, and the other replica finishes it from its checkpoint;
 * a replica killed with SIGKILL is found dead by its stale heartbeat, and its runs are released.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, serverUrl } from "../support/postgres.js";
import { spawnServe } from "../support/serve-process.js";
import { collect } from "./harness.js";

const GRAPHS = join(import.meta.dirname, "../fixtures/server-replicas/graphs");
const KEY = "replica-test-key-0123456789";

interface Replica {
  proc: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  client: Client;
}

let dir: string;
let databaseUrl: string;
const replicas: Replica[] = [];

/**
 * Starts `graphspec serve` and waits for the URL it prints. No `--checkpointer`: with
 * DATABASE_URL set, serve keeps checkpoints and records in PostgreSQL by default.
 */
async function startReplica(...extra: string[]): Promise<Replica> {
  const { proc, url, exited } = await spawnServe(
    [
      GRAPHS,
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--api-keys",
      join(dir, "keys.json"),
      "--grace",
      "300",
      ...extra,
    ],
    { cwd: dir, env: { ...process.env, DATABASE_URL: databaseUrl } },
  );
  const r: Replica = {
    proc,
    url,
    exited,
    client: new Client({ apiUrl: url, apiKey: KEY, callerOptions: { maxRetries: 0 } }),
  };
  replicas.push(r);
  return r;
}

beforeAll(async () => {
  if (!serverUrl()) return;
  dir = mkdtempSync(join(tmpdir(), "graphspec-replicas-"));
  writeFileSync(join(dir, "keys.json"), JSON.stringify({ [KEY]: "tenant-1" }));
  databaseUrl = await freshDatabase("graphspec_replicas");
  // One first: it makes the tables; then the second, as a deployment scales up.
  await startReplica();
  await startReplica();
}, 60_000);

afterAll(async () => {
  for (const r of replicas) if (r.proc.exitCode === null) r.proc.kill("SIGTERM");
  await Promise.all(replicas.map((r) => r.exited));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const gateFile = (name: string) => join(dir, `gate-${name}`);
const open = (name: string) => writeFileSync(gateFile(name), "");

async function until<T>(f: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!serverUrl())("two serve replicas on one PostgreSQL", () => {
  it("a thread made and run through one is read, searched and updated through the other", async () => {
    const [a, b] = [replicas[0]!.client, replicas[1]!.client];
    const thread = await a.threads.create({ metadata: { owner: "ann" } });
    expect(await a.runs.wait(thread.thread_id, "three-steps", { input: {} })).toMatchObject({
      n: 3,
    });
    expect((await b.threads.get(thread.thread_id)).metadata).toMatchObject({ owner: "ann" });
    expect((await b.threads.getState(thread.thread_id)).values).toMatchObject({ n: 3 });
    const found = await b.threads.search({ metadata: { owner: "ann" } });
    expect(found.map((t) => t.thread_id)).toEqual([thread.thread_id]);
    const runs = await b.runs.list(thread.thread_id);
    expect(runs.map((r) => r.status)).toEqual(["success"]);
    await b.threads.update(thread.thread_id, { metadata: { topic: "x" } });
    expect((await a.threads.get(thread.thread_id)).metadata).toMatchObject({
      owner: "ann",
      topic: "x",
    });
  });

  it("a run paused at an interrupt through one is resumed through the other", async () => {
    const [a, b] = [replicas[0]!.client, replicas[1]!.client];
    const thread = await a.threads.create();
    await collect(a.runs.stream(thread.thread_id, "approval", { input: { draft: "hi" } }));
    expect((await b.threads.get(thread.thread_id)).status).toBe("interrupted");
    const values = await b.runs.wait(thread.thread_id, "approval", { command: { resume: true } });
    expect(values).toMatchObject({ draft: "hi (sent)", log: ["prepared", "sent"] });
  });

  it("a background run is joined, streamed and refused a second run through either replica", async () => {
    const [a, b] = [replicas[0]!.client, replicas[1]!.client];
    const thread = await a.threads.create();
    const run = await a.runs.create(thread.thread_id, "file-gated", {
      input: { gate: gateFile("join") },
    });
    await until(
      () => b.runs.get(thread.thread_id, run.run_id),
      (r) => r.status === "running",
    );
    expect((await b.threads.get(thread.thread_id)).status).toBe("busy");
    await expect(b.runs.create(thread.thread_id, "file-gated", { input: {} })).rejects.toThrow(
      /409/,
    );
    const joined = b.runs.join(thread.thread_id, run.run_id);
    const streamed = collect(b.runs.joinStream(thread.thread_id, run.run_id));
    open("join");
    expect(await joined).toMatchObject({ done: true, passes: 1 });
    const events = await streamed;
    expect(events.at(-1)).toMatchObject({ event: "values", data: { done: true } });
    expect((await a.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
  });

  it("queued background runs are each run once, by one replica", async () => {
    const clients = [replicas[0]!.client, replicas[1]!.client];
    const started = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const c = clients[i % 2]!;
        const t = await c.threads.create();
        return { t, run: await c.runs.create(t.thread_id, "three-steps", { input: {} }) };
      }),
    );
    for (const [i, { t, run }] of started.entries()) {
      const other = clients[(i + 1) % 2]!;
      expect(await other.runs.join(t.thread_id, run.run_id)).toMatchObject({ n: 3 });
    }
    // A run taken twice would have added its three steps twice (n is a sum).
    for (const { t } of started)
      expect((await clients[0]!.threads.getState(t.thread_id)).values).toMatchObject({ n: 3 });
  });

  it("SIGTERM hands a run in flight back: the other replica finishes it from its checkpoint", async () => {
    const third = await startReplica();
    const survivor = replicas[0]!.client;
    const thread = await survivor.threads.create();
    // Only the new replica is asked, and it takes what it queues first (it is woken at once).
    const run = await third.client.runs.create(thread.thread_id, "file-gated", {
      input: { gate: gateFile("handback") },
    });
    await until(
      () => survivor.threads.getState(thread.thread_id),
      (s) => s.next.includes("hold"),
    );
    third.proc.kill("SIGTERM");
    expect(await third.exited).toBe(0);
    open("handback");
    expect(await survivor.runs.join(thread.thread_id, run.run_id)).toMatchObject({
      done: true,
      passes: 1,
      // `begin` ran once: the run went on from its checkpoint, it did not start again.
      started: 1,
    });
    expect((await survivor.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
  });

  it("SIGKILL: once the killed replica's heartbeat is stale, its background run goes back to the queue and its streamed run's thread is freed", async () => {
    // Beats every 200 ms: taken for dead 1 s after its last beat.
    const doomed = await startReplica("--heartbeat", "200");
    const survivor = replicas[0]!.client;
    const queued = await survivor.threads.create();
    const streamed = await survivor.threads.create();
    const background = await doomed.client.runs.create(queued.thread_id, "file-gated", {
      input: { gate: gateFile("killed-queued") },
    });
    const stream = collect(
      doomed.client.runs.stream(streamed.thread_id, "file-gated", {
        input: { gate: gateFile("killed-streamed") },
      }),
    ).catch(() => []);
    for (const t of [queued, streamed])
      await until(
        () => survivor.threads.getState(t.thread_id),
        (s) => s.next.includes("hold"),
      );
    const [streamedRun] = await survivor.runs.list(streamed.thread_id);
    doomed.proc.kill("SIGKILL");
    await doomed.exited;
    await stream; // cut short with its replica

    // The streamed run's record says what happened; its thread takes runs and updates again.
    await until(
      () => survivor.runs.get(streamed.thread_id, streamedRun!.run_id),
      (r) => r.status !== "running",
    );
    expect((await survivor.runs.get(streamed.thread_id, streamedRun!.run_id)).status).toBe("error");
    expect((await survivor.threads.get(streamed.thread_id)).status).not.toBe("busy");
    await survivor.threads.updateState(streamed.thread_id, { values: { passes: 0 } });
    open("killed-streamed");
    expect(
      await survivor.runs.wait(streamed.thread_id, "file-gated", { input: null }),
    ).toMatchObject({ done: true, passes: 1, started: 1 });

    // The background run is taken again and goes on from its checkpoint on the survivor.
    open("killed-queued");
    expect(await survivor.runs.join(queued.thread_id, background.run_id)).toMatchObject({
      done: true,
      passes: 1,
      started: 1,
    });
    expect((await survivor.runs.get(queued.thread_id, background.run_id)).status).toBe("success");
  }, 60_000);
});
