/** Threads and their states as the LangGraph API shows them, read through the executor. */
import type { ThreadState } from "../run/executor-api.js";
import { toPlain } from "../run/serialize.js";
import { type ClientView, clientFailure, clientText } from "./client-text.js";
import { runFailure } from "./run-failure.js";
import type { ServerParts } from "./server-parts.js";

const checkpoint = (threadId: string, checkpointId: string | undefined) => ({
  thread_id: threadId,
  checkpoint_ns: "",
  checkpoint_id: checkpointId ?? null,
  checkpoint_map: null,
});

type Tasks = ThreadState["tasks"];

/** What a client of `p` may read of a thread's errors (client-text.ts): its own ids, relative paths. */
export const threadClientView = (
  p: ServerParts,
  storedId: string,
  clientId: string,
): ClientView => ({
  root: p.graphs.root,
  threads: new Map([[storedId, clientId]]),
});

/** One checkpoint of a thread as the API's ThreadState; a failed task's error as `view` lets a client read it. */
export function stateView(
  clientId: string,
  s: Omit<ThreadState, "tasks" | "parentCheckpointId"> & {
    tasks?: Tasks;
    parentCheckpointId?: string;
  },
  view?: ClientView,
) {
  const tasks = (s.tasks ?? []).map((t) => ({
    id: t.id,
    name: t.name,
    interrupts: t.interrupts,
    // As LangGraph's server gives it: the failed task's error message.
    error: t.error === undefined ? null : view ? clientText(t.error, view) : t.error,
    checkpoint: null,
    state: null,
    // What the task wrote, or null (not finished, or wrote nothing), as LangGraph's server says.
    result: t.result === undefined ? null : toPlain(t.result),
  }));
  return {
    values: toPlain(s.values),
    next: s.next,
    tasks,
    checkpoint: checkpoint(clientId, s.checkpointId),
    parent_checkpoint: s.parentCheckpointId ? checkpoint(clientId, s.parentCheckpointId) : null,
    metadata: { step: s.step, source: s.source },
    created_at: s.createdAt ?? null,
    interrupts: tasks.flatMap((t) => t.interrupts),
  };
}

/** A state for a thread with no checkpoint yet (created, never run). */
export const emptyState = (clientId: string) => ({
  values: {},
  next: [],
  tasks: [],
  checkpoint: checkpoint(clientId, undefined),
  parent_checkpoint: null,
  metadata: {},
  created_at: null,
  interrupts: [],
});

/** The thread as the API shows it, or undefined when neither the records nor the checkpointer know it. */
export async function threadView(p: ServerParts, storedId: string, clientId: string) {
  const record = await p.store.getThread(storedId);
  const state = await p.exec.state(storedId).catch(() => undefined);
  if (!record && !state) return undefined;
  const live = await p.runs.active(storedId);
  const [last] = await p.store.runsOfThread(storedId, { limit: 1 });
  const pending = state ? state.tasks.filter((t) => t.interrupts.length) : [];
  // As LangGraph's server orders it: a failed last run is `error` even though the node that threw
  // is still pending in the checkpoint (`next` names it); only a pause is `interrupted`. The
  // checkpoint keeps the failure too (step-failure.ts): a thread whose run records are gone (a
  // server started again on the same checkpoints) still says it failed, and why.
  // A failed run record counts unless the thread moved on after it (another process ran it
  // since, on the same checkpoints: `graphspec run --thread`).
  const lastFailed =
    last?.record.status === "error" &&
    !(state?.createdAt && state.createdAt > last.record.updated_at);
  const status = live
    ? "busy"
    : lastFailed || state?.error
      ? "error"
      : pending.length || state?.next.length
        ? "interrupted"
        : "idle";
  const created = record?.created_at ?? state?.createdAt ?? new Date(0).toISOString();
  const updated =
    state?.createdAt && state.createdAt > (record?.updated_at ?? "")
      ? state.createdAt
      : (record?.updated_at ?? created);
  return {
    thread_id: clientId,
    created_at: created,
    updated_at: updated,
    state_updated_at: state?.createdAt ?? created,
    metadata: record?.metadata ?? {},
    status,
    values: toPlain(state?.values ?? {}),
    interrupts: Object.fromEntries(pending.map((t) => [t.id, t.interrupts])),
    config: {},
    // The SDK's `Thread.error` (LangGraph Platform's, "if status == error"): the failure as the
    // run's stream said it — code, message, node, hint — read back from the checkpoint.
    ...(status === "error" && state?.error
      ? { error: clientFailure(runFailure(state.error), threadClientView(p, storedId, clientId)) }
      : {}),
  };
}
