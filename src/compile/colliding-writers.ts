/**
 * Which of a child graph's nodes wrote the channel its last step could not combine (LangGraph's
 * InvalidUpdateError names the channel and the values, not the nodes). LangGraph keeps the step's
 * writes with the child's checkpoint, under the subgraph task's namespace; read there without
 * applying them, the checkpoint's tasks say whose they were — as the executor does for the run's
 * own graph (run/thread-snapshot.ts).
 */
import { BaseCheckpointSaver, type LangGraphRunnableConfig } from "@langchain/langgraph";
import type { SpecGraph } from "./spec-graph.js";

/** The channel an InvalidUpdateError names (`Invalid update for channel "x" …`). */
const channelOf = (e: unknown): string | undefined =>
  (e as Error)?.name === "InvalidUpdateError"
    ? /^Invalid update for channel "([^"]+)"/.exec(String((e as Error).message))?.[1]
    : undefined;

/** The child's nodes whose writes to the channel `error` names collided; [] when unknown. */
export async function collidingWriters(
  child: SpecGraph,
  config: LangGraphRunnableConfig,
  error: unknown,
): Promise<string[]> {
  const channel = channelOf(error);
  const saver = child.checkpointer;
  const { thread_id, checkpoint_ns } = config.configurable ?? {};
  if (channel === undefined || !(saver instanceof BaseCheckpointSaver) || !checkpoint_ns) return [];
  try {
    const at = { thread_id, checkpoint_ns };
    const tuple = await saver.getTuple({ configurable: at });
    const checkpoint_id = tuple?.config.configurable?.checkpoint_id;
    if (typeof checkpoint_id !== "string") return [];
    const wrote = new Set(
      (tuple?.pendingWrites ?? []).filter(([, c]) => c === channel).map(([id]) => id),
    );
    // With a checkpoint id, LangGraph reads the checkpoint without applying the kept writes.
    const snapshot = await child.getState({ configurable: { ...at, checkpoint_id } });
    return [...new Set(snapshot.tasks.filter((t) => wrote.has(t.id)).map((t) => t.name))];
  } catch {
    // Only a better message was at stake: the failure is reported without the nodes.
    return [];
  }
}
