/**
 * Runs' events kept for `joinStream` are bounded in bytes, per run and in all: many runs with
 * large event volumes (each within every other limit) no longer pile up in the server's memory —
 * before, every event of the last 1,000 finished runs was kept, and runs of 37 MB of events took
 * `serve` out of memory after ~694 of them. A run whose events were dropped still has its result
 * (`join`); `joinStream` of it answers 410 with a message saying its events are no longer kept.
 * Through the official SDK: against startServer from the package entry (the bytes kept, read
 * from the running server) and against `graphspec serve` in a process of its own (its memory).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, startServer } from "../../src/index.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");
const KiB = 1024;
const MiB = 1024 * KiB;
const dir = mkdtempSync(join(tmpdir(), "graphspec-run-events-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
// Each step appends a chunk; a `values` event carries the whole state, so a run of 25 steps of
// 60 KiB sends ~6.3 MB of events (14 × 15 / 2 chunks).
writeFileSync(
  join(dir, "graphs", "grow.yaml"),
  `version: 1
name: grow
state:
  log: { type: array, items: { type: string }, reducer: append, default: [] }
  n: { type: integer, default: 0 }
context:
  chunk: { type: string }
  steps: { type: integer }
limits: { recursion: 1000 }
nodes:
  add: { kind: set, values: { log: ["\${{ context.chunk }}"], n: "\${{ state.n + 1 }}" } }
edges:
  - { from: START, to: add }
  - from: add
    route:
      - { when: "state.n >= context.steps", to: END }
      - { default: add }
`,
);
const context = { chunk: "e".repeat(60 * KiB), steps: 14 };
// A graph whose every step writes 800 KB never seen before: `updates` events that share no
// memory with each other (a `values` event shares its strings with the others), ~4 MB a run.
mkdirSync(join(dir, "nodes"));
writeFileSync(
  join(dir, "nodes", "fresh.mjs"),
  `import { randomBytes } from "node:crypto";
export default (state) => ({ log: [randomBytes(400 * 1024).toString("hex")], n: state.n + 1 });
`,
);
writeFileSync(
  join(dir, "graphs", "fresh.yaml"),
  `version: 1
name: fresh
state:
  log: { type: array, items: { type: string }, reducer: append, default: [] }
  n: { type: integer, default: 0 }
nodes:
  add: { kind: function, module: ../nodes/fresh.mjs, writes: [log, n] }
edges:
  - { from: START, to: add }
  - from: add
    route:
      - { when: "state.n >= 5", to: END }
      - { default: add }
`,
);

// A graph whose every step writes 100,000 empty objects: 300 KB as JSON, ~6 MB in memory (and as
// many again in the event's copy). Events counted by their JSON were kept at a tenth of what
// they take.
writeFileSync(
  join(dir, "nodes", "many.mjs"),
  `export default (state) => ({ items: Array.from({ length: 100000 }, () => ({})), n: state.n + 1 });
`,
);
writeFileSync(
  join(dir, "graphs", "many.yaml"),
  `version: 1
name: many
state:
  items: { type: array, items: { type: object }, default: [] }
  n: { type: integer, default: 0 }
nodes:
  add: { kind: function, module: ../nodes/many.mjs, writes: [items, n] }
edges:
  - { from: START, to: add }
  - from: add
    route:
      - { when: "state.n >= 3", to: END }
      - { default: add }
`,
);

/** Runs `many` to its end, streaming its updates. */
async function manyRun(client: Client, threadId: string) {
  const thread = await client.threads.create({ threadId });
  let updates = 0;
  for await (const e of client.runs.stream(thread.thread_id, "many", { streamMode: "updates" }))
    if (e.event === "updates") updates++;
  expect(updates).toBe(3);
}

/** Runs `fresh` to its end, streaming its updates. */
async function freshRun(client: Client, threadId: string) {
  const thread = await client.threads.create({ threadId });
  let updates = 0;
  for await (const e of client.runs.stream(thread.thread_id, "fresh", { streamMode: "updates" }))
    if (e.event === "updates") updates++;
  expect(updates).toBe(5);
}

/** Runs one streamed run to its end (every event read); its thread and run ids. */
async function streamRun(client: Client, threadId: string) {
  const thread = await client.threads.create({ threadId });
  let runId = "";
  let events = 0;
  for await (const e of client.runs.stream(thread.thread_id, "grow", {
    context,
    streamMode: "values",
  } as never)) {
    if (e.event === "metadata") runId = (e.data as { run_id: string }).run_id;
    events++;
  }
  expect(events).toBe(1 + context.steps);
  return { threadId: thread.thread_id, runId };
}

/** What joinStream of a run answers: its events, or the error it throws. */
async function joinStream(client: Client, threadId: string, runId: string) {
  const events: { event: string; data: unknown }[] = [];
  try {
    for await (const e of client.runs.joinStream(threadId, runId)) events.push(e);
    return { events };
  } catch (e) {
    return { events, error: e as Error & { status?: number } };
  }
}

describe("runs' events kept for joinStream are bounded in bytes", () => {
  it("per run and in all (startServer): old runs' events go, and joinStream says so; join still answers", async () => {
    const maxRunEventBytes = 4 * MiB;
    const maxEventBytes = 12 * MiB;
    const exec = createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory" });
    const server = await startServer({
      exec,
      graphs: await folderCatalog(join(dir, "graphs")),
      auth: undefined,
      port: 0,
      maxRunEventBytes,
      maxEventBytes,
    });
    try {
      const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
      const runs = [];
      for (let i = 0; i < 12; i++) {
        runs.push(await streamRun(client, `t${i}`));
        expect(server.retainedEventBytes()).toBeLessThanOrEqual(maxEventBytes);
      }
      // The newest run keeps its newest events (within its own bound), not its first ones.
      const newest = runs.at(-1)!;
      const late = await joinStream(client, newest.threadId, newest.runId);
      expect(late.error?.message).toMatch(/410|no longer kept/);
      // From a Last-Event-ID among those kept, the rest are replayed.
      const resumed = await fetch(
        `${server.url}/threads/${newest.threadId}/runs/${newest.runId}/stream`,
        { headers: { "last-event-id": String(context.steps - 1) } },
      );
      expect(resumed.status).toBe(200);
      const text = await resumed.text();
      expect(text).toContain(`id: ${context.steps}\n`);
      expect(text).not.toContain(`id: ${context.steps - 1}\n`);
      // The oldest run's events are gone: a clear answer, not a hang or a 500.
      const oldest = runs[0]!;
      const gone = await joinStream(client, oldest.threadId, oldest.runId);
      expect(gone.events).toEqual([]);
      expect(gone.error?.message).toMatch(/ended \(success\), but its events are no longer kept/);
      const answer = await fetch(
        `${server.url}/threads/${oldest.threadId}/runs/${oldest.runId}/stream`,
      );
      expect(answer.status).toBe(410);
      expect(await answer.json()).toMatchObject({
        error: "run-events-not-kept",
        hint: expect.stringMatching(/runs\.join/),
      });
      // Its result is still there.
      const values = (await client.runs.join(oldest.threadId, oldest.runId)) as { n: number };
      expect(values.n).toBe(context.steps);
    } finally {
      await server.close(1000);
    }
  }, 60_000);

  it("a run within the bounds is replayed whole", async () => {
    const exec = createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory" });
    const server = await startServer({
      exec,
      graphs: await folderCatalog(join(dir, "graphs")),
      auth: undefined,
      port: 0,
    });
    try {
      const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
      const run = await streamRun(client, "whole");
      const again = await joinStream(client, run.threadId, run.runId);
      expect(again.error).toBeUndefined();
      expect(again.events.map((e) => e.event)).toEqual([
        "metadata",
        ...Array(context.steps).fill("values"),
      ]);
    } finally {
      await server.close(1000);
    }
  });
});

/** `graphspec serve graphs` in a 160 MB heap with `args`: its URL and its stderr so far. */
async function serveInSmallHeap(args: string[]): Promise<{ url: string; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    ["--max-old-space-size=160", BIN, "serve", "graphs", "--no-auth", "--port", "0"].concat(
      ["--host", "127.0.0.1"],
      args,
    ),
    { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
  );
  server = child;
  let out = "";
  let err = "";
  child.stderr!.on("data", (d) => {
    err += d;
  });
  const exited = new Promise<string>((r) =>
    child.once("exit", (code, signal) => r(`serve exited ${code ?? signal}: ${err.slice(-2000)}`)),
  );
  const url = await Promise.race([
    new Promise<string>((resolve) => {
      child.stdout!.on("data", (d) => {
        out += d;
        if (out.includes("\n")) resolve(out.split("\n")[0]!);
      });
    }),
    exited.then((why) => Promise.reject(new Error(why))),
  ]);
  return { url, stderr: () => err };
}

let server: ChildProcess | undefined;

/**
 * `graphspec serve` with a 160 MB heap, as a small container would give it: runs' events kept
 * past the bound would fill it (the server dies out of memory); within the bound it stays up.
 * Memory measured by what the process survives, not by RSS, which garbage not yet collected
 * inflates whatever is kept.
 */
describe("graphspec serve, many runs with large events", () => {
  afterAll(() => {
    server?.kill("SIGKILL");
  });

  it("stays up in a 160 MB heap through 12 runs of events of many small values (--max-event-bytes 48MiB)", async () => {
    // 12 runs of 3 events of 100,000 objects: ~0.9 MB a run as JSON, all of it within 48 MiB;
    // ~18 MB a run in memory, over 200 MB in all (counted as JSON, serve died at the 5th run).
    // Counted as memory, the events of two runs fit.
    const started = await serveInSmallHeap([
      "--checkpointer",
      "sqlite",
      "--max-event-bytes",
      "48MiB",
    ]);
    const { url } = started;
    const err = () => started.stderr();
    const client = new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } });
    for (let i = 0; i < 12; i++) {
      const ran = await manyRun(client, `small${i}`).then(
        () => undefined,
        (e: Error) => e,
      );
      if (ran) throw new Error(`run ${i}: ${ran.message}; the server said: ${err().slice(-1000)}`);
    }
    expect((await fetch(`${url}/ok`)).status).toBe(200);
    server?.kill("SIGKILL");
  }, 240_000);

  it("stays up in a 160 MB heap through 50 runs of ~4 MB of events each (--max-event-bytes 8MiB)", async () => {
    const started = await serveInSmallHeap([
      // Checkpoints on disk: what stays in memory is the server's own.
      "--checkpointer",
      "sqlite",
      "--max-event-bytes",
      "8MiB",
      "--max-run-event-bytes",
      "2MiB",
    ]);
    const { url } = started;
    const err = () => started.stderr();
    const client = new Client({ apiUrl: url, callerOptions: { maxRetries: 0 } });
    // 50 runs of ~4 MB of events: ~200 MB kept before, past the heap.
    for (let i = 0; i < 50; i++) {
      const ran = await freshRun(client, `many${i}`).then(
        () => undefined,
        (e: Error) => e,
      );
      if (ran) throw new Error(`run ${i}: ${ran.message}; the server said: ${err().slice(-1000)}`);
    }
    expect((await fetch(`${url}/ok`)).status).toBe(200);
  }, 180_000);
});
