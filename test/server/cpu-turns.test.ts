/**
 * Fair turns on the server's thread (issue 23, src/compile/cpu-turns.ts). Tenant A keeps busy
 * loops running — steps with no I/O, each its node and its checkpoint — while tenant B runs a
 * three-step graph through the official SDK. On a first-in-first-out event loop each of B's steps
 * waited behind a step of every one of A's runs; with turns, B (the tenant that used the least)
 * gets the turn each time it asks, so A's runs store few checkpoints while B's run goes from its
 * first checkpoint to its last. Counted from the checkpoints' own times: an order, not a time.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, expect, it } from "vitest";
import { createExecutor, folderCatalog, serverAuth, startServer } from "../../src/index.js";

const GRAPHS = join(import.meta.dirname, "../fixtures/cpu-turns/graphs");
const KEY_A = "tenant-a-key-0123456789";
const KEY_B = "tenant-b-key-0123456789";
/** A's runs in flight at once (within its running cap of 8). */
const A_RUNS = 6;

const dir = mkdtempSync(join(tmpdir(), "graphspec-cpu-turns-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("a tenant's small run waits for about one of another tenant's busy steps per step, not one per run", async () => {
  const sqlitePath = join(dir, "state.db");
  const keys = join(dir, "keys.json");
  writeFileSync(keys, JSON.stringify({ [KEY_A]: "a", [KEY_B]: "b" }));
  const server = await startServer({
    exec: createExecutor({ dir: GRAPHS, checkpointer: "sqlite", sqlitePath }),
    graphs: await folderCatalog(GRAPHS),
    auth: await serverAuth({ apiKeys: keys }),
    port: 0,
    records: { sqlite: sqlitePath },
  });
  const client = (key: string) =>
    new Client({ apiUrl: server.url, apiKey: key, callerOptions: { maxRetries: 0 } });
  const a = client(KEY_A);
  const b = client(KEY_B);
  try {
    const spinning = await Promise.all(
      Array.from({ length: A_RUNS }, async () => {
        const thread = (await a.threads.create()).thread_id;
        const run = await a.runs.create(thread, "spin", { input: { rounds: 9_000 } });
        return { thread, run: run.run_id };
      }),
    );
    // Every one of A's runs is stepping before B starts.
    for (const s of spinning)
      while (((await a.threads.getState(s.thread)).values as { n?: number }).n === undefined)
        await new Promise((r) => setTimeout(r, 20));

    const thread = (await b.threads.create()).thread_id;
    const out = (await b.runs.wait(thread, "small", { input: {} })) as { n?: number };
    expect(out.n).toBe(3);
    const mine = (await b.threads.getHistory(thread, { limit: 10 })).map((s) => s.created_at!);
    const from = mine.reduce((x, y) => (x < y ? x : y));
    const to = mine.reduce((x, y) => (x > y ? x : y));

    for (const s of spinning) await a.runs.cancel(s.thread, s.run, true);
    let during = 0;
    for (const s of spinning)
      for (const h of await a.threads.getHistory(s.thread, { limit: 1000 }))
        if (h.created_at! > from && h.created_at! < to) during++;
    // B's run stores 5 checkpoints (input, 3 steps, end) in 4 steps' time. First come first
    // served, A's 6 runs stored one each (and more) per step of B's: 46 and 63 in two runs. With
    // turns, at most one of A's chunks runs per step of B's.
    expect(mine).toHaveLength(5);
    expect(during).toBeLessThanOrEqual(mine.length - 1);
  } finally {
    await server.close(2000);
  }
}, 60_000);
