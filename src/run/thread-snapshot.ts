/**
 * Where a thread stands, read even when its last step's writes cannot be applied. LangGraph keeps
 * the writes of a step's finished tasks with the checkpoint, and `getState` applies them: when two
 * nodes wrote one `replace` channel, that throws the step's InvalidUpdateError again, on every read
 * (the end of the run, `inspect`, `threads show`, a resume); a reducer of the spec's own that
 * refuses a written value throws the same way. Read then at the checkpoint itself — the state
 * before the failed step — and give the error back as why the thread failed, with the nodes whose
 * writes collided.
 */
import type { BaseCheckpointSaver, StateSnapshot } from "@langchain/langgraph";
import type { SpecGraph } from "../compile/compile.js";
import { toRunError, withWriters } from "./classify-error.js";
import type { RunError } from "./result.js";

export interface ThreadSnapshot {
  snapshot: StateSnapshot;
  /** Why the step after `snapshot` cannot be applied: a `parallel-write` naming the nodes, … */
  failure?: RunError;
}

/** The channel an InvalidUpdateError names (`Invalid update for channel "x" …`). */
export const channelOf = (e: unknown): string | undefined =>
  /^Invalid update for channel "([^"]+)"/.exec(String((e as Error)?.message ?? ""))?.[1];

/** The thread's latest state; its last step's error when its writes cannot be applied. */
export async function threadSnapshot(
  graph: SpecGraph,
  saver: BaseCheckpointSaver,
  threadId: string,
): Promise<ThreadSnapshot> {
  try {
    return { snapshot: await graph.getState({ configurable: { thread_id: threadId } }) };
  } catch (e) {
    // Applying the kept writes threw (colliding writes, a reducer refusing a value). Any other
    // failure (the store itself) fails the read at the checkpoint too, and is thrown as it was.
    const tuple = await saver.getTuple({
      configurable: { thread_id: threadId, checkpoint_ns: "" },
    });
    const checkpointId = tuple?.config.configurable?.checkpoint_id;
    if (typeof checkpointId !== "string") throw e;
    // With a checkpoint id, LangGraph reads the checkpoint without applying the pending writes.
    const snapshot = await graph
      .getState({
        configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpointId },
      })
      .catch(() => {
        throw e;
      });
    const writers = writersOf(channelOf(e), tuple?.pendingWrites ?? [], snapshot);
    return { snapshot, failure: withWriters(toRunError(e), writers) };
  }
}

/** The nodes whose kept writes went to `channel`, in task order. */
function writersOf(
  channel: string | undefined,
  pending: readonly (readonly [string, string, unknown])[],
  snapshot: StateSnapshot,
): string[] {
  if (channel === undefined) return [];
  const wrote = new Set(pending.filter(([, c]) => c === channel).map(([id]) => id));
  return [...new Set(snapshot.tasks.filter((t) => wrote.has(t.id)).map((t) => t.name))];
}
