/**
 * A tenant's one background run beside another tenant's flood of them (issue 23): tenant A keeps
 * its running cap full of busy loops (each step one long chunk of CPU, and its checkpoint) and
 * more queued, its runs ending and the next starting all along; tenant B queues one three-step
 * run and joins it through the official SDK. B's run must not wait behind A's work on its way:
 * not when the queue takes it (the queue's statements ran in the turns of the tenant whose
 * request or run woke it — A's, behind every chunk A had waiting), not when it is joined (a join
 * asked before the run started polled the records, and the run ended unseen until the next
 * poll). Each of A's steps is one long chunk, so A's checkpoints count A's chunks: how many A
 * stored between B's run being queued and B's join answering — an order, not a time.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, expect, it } from "vitest";
import { createExecutor, folderCatalog, serverAuth, startServer } from "../../src/index.js";

const GRAPHS = join(import.meta.dirname, "../fixtures/cpu-turns/graphs");
const KEY_A = "tenant-a-key-0123456789";
const KEY_B = "tenant-b-key-0123456789";
/** A's background runs: its running cap's 12, and the rest queued behind them. */
const A_RUNS = 24;

/** Each step of A's runs one long chunk: 600 × 600 string comparisons, no common item. */
const churn = {
  xs: Array.from({ length: 600 }, (_, i) => `x-${i}`),
  ys: Array.from({ length: 600 }, (_, i) => `y-${i}`),
  rounds: 20,
};

const dir = mkdtempSync(join(tmpdir(), "graphspec-background-turns-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("a tenant's one background run is not kept behind another tenant's flood: queued, taken, run and joined", {
  timeout: 60_000,
}, async () => {
  const sqlitePath = join(dir, `state-${randomUUID()}.db`);
  const keys = join(dir, "keys.json");
  writeFileSync(keys, JSON.stringify({ [KEY_A]: "a", [KEY_B]: "b" }));
  const server = await startServer({
    exec: createExecutor({ dir: GRAPHS, checkpointer: "sqlite", sqlitePath }),
    graphs: await folderCatalog(GRAPHS),
    auth: await serverAuth({ apiKeys: keys }),
    port: 0,
    records: { sqlite: sqlitePath },
    // More of A's runs at once, each with a chunk waiting for its turn (16 slots: B finds one).
    maxRunningPerTenant: 12,
  });
  const client = (key: string) =>
    new Client({ apiUrl: server.url, apiKey: key, callerOptions: { maxRetries: 0 } });
  const a = client(KEY_A);
  const b = client(KEY_B);
  try {
    // B's graph loaded first: a graph's first load (its spec read and compiled, with awaits on
    // the thread pool) is no wait behind A, but A's chunks run meanwhile — under load (~25 on 2
    // cores) A stored 8 to 22 checkpoints during it, which was this test's miss (once in CI: 24).
    const warm = (await b.threads.create()).thread_id;
    expect(((await b.runs.wait(warm, "small", { input: {} })) as { n?: number }).n).toBe(3);
    const flood = await Promise.all(
      Array.from({ length: A_RUNS }, async () => {
        const thread = (await a.threads.create()).thread_id;
        const run = await a.runs.create(thread, "churn", { input: churn });
        return { thread, run: run.run_id };
      }),
    );
    // A's runs have been ending and the next ones starting (each end wakes the queue).
    await a.runs.join(flood[0]!.thread, flood[0]!.run);
    // A goes on queueing runs (each request wakes the queue) while B queues its one and joins it.
    let joined = false;
    const more = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (!joined) {
          const thread = (await a.threads.create()).thread_id;
          const run = await a.runs.create(thread, "churn", { input: churn });
          flood.push({ thread, run: run.run_id });
        }
      }),
    );
    const thread = (await b.threads.create()).thread_id;
    const mine = await b.runs.create(thread, "small", { input: {} });
    const out = (await b.runs.join(thread, mine.run_id)) as { n?: number };
    const answered = new Date().toISOString();
    joined = true;
    await more;
    expect(out.n).toBe(3);
    const mine_ = (await b.threads.getHistory(thread, { limit: 10 })).map((h) => h.created_at!);
    const checkpoints = mine_.length;
    const first = mine_.reduce((x, y) => (x < y ? x : y));
    const last = mine_.reduce((x, y) => (x > y ? x : y));

    let during = 0;
    const w = { queued: 0, run: 0, joined: 0 };
    for (const f of flood) {
      await a.runs.cancel(f.thread, f.run, false).catch(() => {});
      for (const h of await a.threads.getHistory(f.thread, { limit: 1000 })) {
        const t = h.created_at!;
        if (t > mine.created_at && t < answered) during++;
        if (t > mine.created_at && t < first) w.queued++;
        if (t > first && t < last) w.run++;
        if (t > last && t < answered) w.joined++;
      }
    }
    // A's chunks run between B's turns only when B asks late: one of them in flight when B's
    // run was queued, perhaps one more. Before, the queue took B's run in A's turns and the join
    // polled for its end: A stored 10, 3 and 5 checkpoints meanwhile (0 and 1 after).
    expect(checkpoints).toBe(5);
    expect(
      during,
      `A's checkpoints while B's run was queued, ran and was joined: ${JSON.stringify(w)}`,
    ).toBeLessThanOrEqual(2);
  } finally {
    await server.close(2000);
  }
});
