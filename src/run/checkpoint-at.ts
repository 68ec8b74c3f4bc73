/**
 * A run or a state update from one checkpoint of a thread (LangGraph's time travel and forks). The
 * checkpoint is looked up within the thread only: an id of another thread's checkpoint is not
 * found. Checked before LangGraph sees it, because LangGraph's `updateState` given a checkpoint it
 * cannot read writes on top of an empty state instead of failing.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { RunError } from "./result.js";

/** The configurable keys that put a run or an update at `checkpointId` of the thread. */
export const atCheckpoint = (threadId: string, checkpointId: string) => ({
  thread_id: threadId,
  checkpoint_ns: "",
  checkpoint_id: checkpointId,
});

/** Undefined when the thread has the checkpoint; else the error that says it has not. */
export async function missingCheckpoint(
  saver: BaseCheckpointSaver,
  threadId: string,
  checkpointId: unknown,
): Promise<RunError | undefined> {
  const id = typeof checkpointId === "string" ? checkpointId : JSON.stringify(checkpointId);
  if (typeof checkpointId === "string" && checkpointId) {
    const tuple = await saver.getTuple({ configurable: atCheckpoint(threadId, checkpointId) });
    if (tuple?.config.configurable?.checkpoint_id === checkpointId) return undefined;
  }
  return {
    code: "checkpoint-not-found",
    phase: "input",
    field: "checkpointId",
    // The thread is not named: behind a server, its stored id is not the client's.
    message: `the thread has no checkpoint \`${id}\``,
    hint: "take a checkpoint id from the thread's own history (`history`, `threads.getHistory`)",
  };
}
