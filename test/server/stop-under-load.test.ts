/**
 * SIGTERM while clients keep starting runs (the built CLI, dist/, after `npm run build`): every run
 * the server started is recorded with its end — none left `running` in the records, no "cannot
 * record a run's end" — and a run asked for once the server is stopping is refused with a 503 the
 * client can retry elsewhere, not started after the records were closed; a streamed run's last
 * events reach its client before the connections close.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { spawnServe } from "../support/serve-process.js";

const GRAPHS = join(import.meta.dirname, "..", "fixtures", "server", "graphs");
const dir = mkdtempSync(join(tmpdir(), "graphspec-stop-load-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `graphspec serve` on SQLite in `dir`. */
const serve = () =>
  spawnServe([GRAPHS, "--no-auth", "--checkpointer", "sqlite", "--port", "0"], { cwd: dir });

describe("serve stopped under load", () => {
  it("records every run it started, and refuses the ones asked for while it stops", async () => {
    const first = await serve();
    const client = new Client({ apiUrl: first.url, callerOptions: { maxRetries: 0 } });
    const threads: string[] = [];
    const refusals: unknown[] = [];
    const cut: string[] = [];
    let answered = 0;
    let stopping = false;
    // Eight clients starting runs back to back, until the server is gone.
    const clients = Array.from({ length: 8 }, async (_, i) => {
      for (;;) {
        const thread = randomUUID();
        threads.push(thread);
        let answer: unknown;
        let heard = 0;
        try {
          if (i % 2)
            answer = await client.runs.wait(thread, "three-steps", {
              input: {},
              ifNotExists: "create",
            });
          else
            for await (const e of client.runs.stream(thread, "three-steps", {
              input: {},
              ifNotExists: "create",
            })) {
              heard++;
              if (e.event === "values") answer = e.data;
            }
        } catch (e) {
          if (!stopping) throw e;
          // A stream the server had begun to answer, then cut: its run's end never reached it.
          if (heard) cut.push(`${heard} events, then ${(e as Error).message}`);
          const status = (e as { status?: number }).status;
          // Refused as stopping, or the connection closed under it: both leave the run unstarted
          // or recorded (checked below); nothing else.
          if (status !== undefined) refusals.push([status, (e as Error).message]);
          return;
        }
        // A run's answer — a streamed run's last events too — reaches its client whole.
        expect(answer).toMatchObject({ n: 3 });
        answered++;
      }
    });
    let broken = false;
    const all = Promise.all(clients).catch((e) => {
      broken = true;
      throw e;
    });
    // Stopped once runs are going steadily (a count, not a time: a loaded machine is slower).
    while (answered < 20 && !broken) await new Promise((r) => setTimeout(r, 10));
    stopping = true;
    first.proc.kill("SIGTERM");
    await all;
    expect(await first.exited).toBe(0);
    expect(cut).toEqual([]);
    expect(first.stderr(), first.stderr()).not.toMatch(/cannot record|graphspec server:/);
    for (const [status, message] of refusals as [number, string][]) {
      expect(status, message).toBe(503);
      expect(message).toMatch(/stopping/);
    }

    // The same records, read by the next server: no run of the first is still `running`.
    const second = await serve();
    try {
      const reader = new Client({ apiUrl: second.url, callerOptions: { maxRetries: 0 } });
      const statuses = new Map<string, number>();
      for (const thread of threads) {
        const runs = await reader.runs.list(thread).catch(() => []);
        for (const r of runs) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
      expect(statuses.get("success")).toBeGreaterThanOrEqual(answered);
      expect([...statuses.keys()].filter((s) => s !== "success" && s !== "interrupted")).toEqual(
        [],
      );
    } finally {
      second.proc.kill("SIGTERM");
      await second.exited;
    }
  }, 60_000);
});
