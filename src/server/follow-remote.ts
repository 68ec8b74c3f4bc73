/**
 * Following a run another replica drives. Its events live in that replica's memory only, so a
 * client here gets what the database tells: the thread's state each time a new checkpoint is
 * written (`values` events), and the run's end. Polled, not pushed: it works the same on SQLite
 * and PostgreSQL, costs the replica that runs the graph nothing (no write per token or per
 * event), and a replica that dies mid-run leaves nothing half-sent to clean up. The price: tokens
 * and the other stream modes are only seen through the replica that runs the graph.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { toPlain } from "../run/serialize.js";
import type { LiveRun } from "./run-registry.js";
import type { ServerParts } from "./server-parts.js";
import type { StoredRun } from "./server-store.js";
import type { SseEvent } from "./stream-modes.js";

/** How often the run's record and its thread's latest checkpoint are read. */
export const REMOTE_POLL_MS = 100;

const ongoing = (r: StoredRun | undefined) =>
  r !== undefined && (r.record.status === "pending" || r.record.status === "running");

/**
 * The run's record once it has ended (or when `signal` aborts: the last one read) — or the run
 * itself once this replica drives it: a queued run this replica takes is awaited here, not
 * polled for (a poll's wait was most of a short background run's time from create to join).
 */
export async function remoteEnd(
  p: ServerParts,
  runId: string,
  signal?: AbortSignal,
): Promise<{ live: LiveRun } | { stored: StoredRun | undefined }> {
  for (;;) {
    const live = p.runs.get(runId);
    if (live) return { live };
    const run = await p.runs.store.getRun(runId);
    if (!ongoing(run) || signal?.aborted) return { stored: run };
    await p.runs.startedHere(runId, REMOTE_POLL_MS, signal);
  }
}

/** The run's server-sent events as this replica can see them: new states, then its end. */
export async function* followRemote(
  p: ServerParts,
  run: StoredRun,
  signal?: AbortSignal,
): AsyncGenerator<SseEvent> {
  yield { event: "metadata", data: { run_id: run.record.run_id, attempt: 1 } };
  let seen: string | undefined;
  for (;;) {
    const now = await p.runs.store.getRun(run.record.run_id);
    const state = await p.exec.state(run.storedThreadId).catch(() => undefined);
    if (state && state.checkpointId !== seen) {
      seen = state.checkpointId;
      yield { event: "values", data: toPlain(state.values) };
    }
    if (!ongoing(now)) {
      if (now?.error) yield { event: "error", data: now.error };
      return;
    }
    if (signal?.aborted) return;
    await sleep(REMOTE_POLL_MS, undefined, { signal }).catch(() => {});
  }
}
