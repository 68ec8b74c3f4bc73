/**
 * What every run, resume and stream goes through before it touches a thread: the thread is claimed
 * for the length of the run (thread-claims.ts) and checked to belong to the graph
 * (thread-graph.ts); a refusal is a failed RunResult that ran nothing. The claim is given back in
 * `finally` — when the run completes, pauses, fails, is cancelled or throws.
 */
import type { RunError, RunResult } from "./result.js";
import { isBusy, type ThreadClaims, threadBusy } from "./thread-claims.js";
import type { ThreadGraphs } from "./thread-graph.js";

/** A run refused before it started: nothing ran, nothing of the thread was read. */
export const refused = (threadId: string, error: RunError): RunResult => ({
  status: "failed",
  output: {},
  threadId,
  checkpointId: undefined,
  interrupts: [],
  next: [],
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  warnings: [],
  error,
});

/** Runs `work` with the thread claimed, when the spec at `path` may run on it. */
export async function onThread(
  claims: ThreadClaims,
  graphs: ThreadGraphs,
  threadId: string,
  path: string,
  work: () => Promise<RunResult>,
): Promise<RunResult> {
  const claim = await claims.claim(threadId);
  if (isBusy(claim)) return refused(threadId, threadBusy(threadId, claim.holder));
  try {
    const mismatch = await graphs.mismatch(threadId, path);
    return mismatch ? refused(threadId, mismatch) : await work();
  } finally {
    await claim.release();
  }
}

/**
 * The spec to read a thread with: the caller's (when the thread belongs to it), or the one the
 * thread stored (when it is inside the project); a RunResult saying why not; undefined for a
 * thread that stores no graph.
 */
export async function graphForThread(
  graphs: ThreadGraphs,
  threadId: string,
  given: string | undefined,
): Promise<{ path: string } | { refusal: RunResult } | undefined> {
  if (given !== undefined) {
    const mismatch = await graphs.mismatch(threadId, given);
    return mismatch ? { refusal: refused(threadId, mismatch) } : { path: given };
  }
  const stored = await graphs.storedGraph(threadId);
  if (stored === undefined) return undefined;
  return "error" in stored ? { refusal: refused(threadId, stored.error) } : stored;
}
