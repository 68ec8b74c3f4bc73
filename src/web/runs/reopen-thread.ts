/**
 * Opening a thread whose runs have ended (a reload, a link to `?thread=`): what its runs showed
 * when they ran, and where it stands. The server keeps each run's events for a while
 * (docs/server.md, "Event retention"): joined again, oldest run first, they give the same nodes,
 * messages, tool calls and usage the live view had — a model's structured answer counted too,
 * which the state does not keep. Events no longer kept (a restarted server, old runs): the
 * state's messages and their usage instead. Either way each node's status comes from the
 * thread's checkpoints and a failure from the thread (thread-progress.ts), so what is shown is
 * the thread's truth, not the memory of a stream.
 */
import type { Run, ThreadState } from "@langchain/langgraph-sdk";
import { client } from "../api.js";
import { conversationOf } from "./conversation.js";
import {
  applyEvent,
  emptyProgress,
  finishedProgress,
  progressFromState,
  RUN_STREAM_MODES,
  type RunProgress,
  startedProgress,
} from "./run-progress.js";
import { nodesFromHistory, withThreadTruth } from "./thread-progress.js";

/** Checkpoints read to find the nodes that ran: a thread of more steps shows the latest ones. */
const HISTORY_READ = 100;
/** Runs listed for a thread opened again; as many listed means there may be more: none replayed. */
export const RUNS_LISTED = 10;

/** The runs' events replayed, oldest run first; undefined when some are no longer kept. */
async function replayed(thread: string, runs: Run[], signal: AbortSignal) {
  // Older runs than those listed would be missing from what is shown: the state says it all.
  if (!runs.length || runs.length >= RUNS_LISTED) return undefined;
  let p = emptyProgress();
  // A run created without the page's modes (or driven by another replica) replays no `tasks`:
  // then its events say less than the state does.
  let tasks = 0;
  try {
    for (const run of [...runs].reverse()) {
      p = startedProgress(p);
      for await (const chunk of client.runs.joinStream(thread, run.run_id, {
        streamMode: [...RUN_STREAM_MODES],
        signal,
      })) {
        if (chunk.event.split("|")[0] === "tasks") tasks++;
        p = applyEvent(p, chunk.event, chunk.data);
      }
      p = finishedProgress(p, false);
    }
  } catch (e) {
    if ((e as Error)?.name === "AbortError") throw e;
    return undefined;
  }
  return tasks ? p : undefined;
}

/**
 * The run view of `thread` once no run is going: `pausedAt`, the nodes it waits at (interrupts or
 * a breakpoint's), and `runs`, its runs as `runs.list` gave them (newest first).
 */
export async function reopenedProgress(
  thread: string,
  state: ThreadState,
  pausedAt: string[],
  runs: Run[],
  signal: AbortSignal,
): Promise<RunProgress> {
  const [info, history, replay] = await Promise.all([
    client.threads.get(thread),
    client.threads.getHistory(thread, { limit: HISTORY_READ }),
    replayed(thread, runs, signal),
  ]);
  const fromState = progressFromState(state.values, pausedAt, state.next ?? []);
  const failed = info.status === "error";
  // The status is the thread's: a replay's last `error` event may be an earlier run's.
  const base: RunProgress = replay
    ? {
        ...replay,
        status: fromState.status,
        error: undefined,
        errorDetail: undefined,
        // The graph's own nodes are the checkpoints' to say (below): a replayed run may have
        // been on a branch the thread has left. A subgraph's (`parent:child`) only events say.
        nodes: Object.fromEntries(
          Object.entries(replay.nodes).filter(([k, s]) => k.includes(":") && s !== "interrupted"),
        ),
      }
    : fromState;
  const fromHistory = nodesFromHistory(history, state);
  const nodes = {
    ...fromHistory,
    ...Object.fromEntries(pausedAt.map((n) => [n, "interrupted" as const])),
    // A node that failed stays failed, whatever else says it waits.
    ...Object.fromEntries(Object.entries(fromHistory).filter(([, s]) => s === "error")),
  };
  // A thread that ran steps but has no `next` and no values of note still ran: it succeeded.
  const ran = Object.keys(nodes).length > 0;
  const status = base.status ?? (ran && !(state.next ?? []).length ? "success" : undefined);
  return withThreadTruth(
    // The whole conversation, the person's and the tools' messages too (conversation.ts).
    { ...base, status, messages: conversationOf(state.values, base.messages) },
    nodes,
    failed ? { error: (info as { error?: unknown }).error } : undefined,
  );
}
