/**
 * A thread read back (a reload, a link to `?thread=`, a restarted server) as the run view shows
 * it: each node's status from the thread's checkpoints — the nodes of every step on the way to the
 * latest checkpoint ran (`done`); the latest checkpoint's tasks failed (`error`) or wait
 * (`interrupted`) — and the failure the server keeps with the thread (`Thread.error`: message,
 * code, node, hint). Pure, so it is tested without a browser.
 */
import {
  type ErrorDetail,
  errorDetailOf,
  type NodeStatus,
  type RunProgress,
} from "./run-progress.js";

/** What of the SDK's ThreadState is read here. */
export interface CheckpointLike {
  checkpoint: { checkpoint_id?: string | null };
  parent_checkpoint?: { checkpoint_id?: string | null } | null;
  tasks?: { name: string; error?: string | null; interrupts?: unknown[] }[];
}

const START = "__start__";

/**
 * Each node's status on the path to `latest` (history: newest first, any order works): the tasks
 * of the checkpoints before it ran; the latest's own tasks failed, wait, or are still to run.
 */
export function nodesFromHistory(
  history: CheckpointLike[],
  latest: CheckpointLike,
): Record<string, NodeStatus> {
  const byId = new Map(history.map((h) => [h.checkpoint.checkpoint_id ?? "", h]));
  const path: CheckpointLike[] = [];
  const seen = new Set<string>();
  for (
    let at = byId.get(latest.parent_checkpoint?.checkpoint_id ?? "");
    at && !seen.has(at.checkpoint.checkpoint_id ?? "");
    at = byId.get(at.parent_checkpoint?.checkpoint_id ?? "")
  ) {
    seen.add(at.checkpoint.checkpoint_id ?? "");
    path.unshift(at);
  }
  const nodes: Record<string, NodeStatus> = {};
  for (const c of path) for (const t of c.tasks ?? []) if (t.name !== START) nodes[t.name] = "done";
  for (const t of latest.tasks ?? []) {
    if (t.name === START) continue;
    if (t.error) nodes[t.name] = "error";
    else if (t.interrupts?.length) nodes[t.name] = "interrupted";
  }
  return nodes;
}

/** The failure a thread keeps (`Thread.error`, `{ error, message, hint?, node? }` or a string). */
export function failureOfThread(error: unknown): { message: string; detail: ErrorDetail } {
  if (typeof error === "string" && error) return { message: error, detail: {} };
  const message =
    error && typeof error === "object" ? (error as { message?: unknown }).message : undefined;
  return {
    message: typeof message === "string" && message ? message : "the last run failed",
    detail: errorDetailOf(error),
  };
}

/** The run as read back: `p`'s messages and usage, the nodes from history, the thread's failure. */
export function withThreadTruth(
  p: RunProgress,
  nodes: Record<string, NodeStatus>,
  failed: { error: unknown } | undefined,
): RunProgress {
  const merged = { ...p, nodes: { ...p.nodes, ...nodes } };
  if (!failed) return merged;
  const { message, detail } = failureOfThread(failed.error);
  return { ...merged, status: "error", error: message, errorDetail: detail };
}
