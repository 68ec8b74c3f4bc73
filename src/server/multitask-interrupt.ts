/**
 * `multitask_strategy: "interrupt"`: a run sent to a busy thread stops the run going on there
 * first, as on LangGraph's server — the stopped run's status is `interrupted`, what it wrote stays
 * in the thread's checkpoints — then starts. The SDK's `useStream` sends it to answer a tool call
 * its page ran (headless tools), and with its `submit` when asked to; its UI orchestrator, to
 * replace a run as a person sends the next message.
 */
import type { ServerParts } from "./server-parts.js";

/** How long the stop may take before the new run is refused as the thread's (409 thread-busy). */
export const INTERRUPT_WAIT_MS = 10_000;
/** How often another replica's run is looked at again while it stops. */
const POLL_MS = 50;

/** Cancels every run queued or running on the thread, here or on another replica, and waits. */
export async function interruptRunsOn(
  p: ServerParts,
  storedThreadId: string,
  signal?: AbortSignal,
): Promise<void> {
  const until = Date.now() + INTERRUPT_WAIT_MS;
  const asked = new Set<string>();
  while (Date.now() < until && !signal?.aborted) {
    const here = p.runs.running(storedThreadId);
    if (here) {
      here.abort.abort();
      await Promise.race([here.done, sleep(until - Date.now())]);
      continue;
    }
    const going = await p.store.runsOfThread(storedThreadId, {
      statuses: ["pending", "running"],
    });
    if (!going.length) return;
    // Driven by another replica (or queued): its worker sees the request and stops it.
    for (const r of going)
      if (!asked.has(r.record.run_id)) {
        asked.add(r.record.run_id);
        await p.store.requestCancel(r.record.run_id);
      }
    await sleep(POLL_MS);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
