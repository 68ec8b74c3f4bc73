/**
 * The threads a checkpointer keeps: listing them with the graph each ran, what a thread remembers
 * (its graph and its context, from the metadata of its latest checkpoint), and deleting them.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { CONTEXT_KEY, GRAPH_KEY } from "./checkpointer.js";
import type { ThreadInfo } from "./executor-api.js";

export function threadIndex(saver: () => Promise<{ saver: BaseCheckpointSaver }>) {
  /** The metadata of a thread's latest checkpoint (one read, not a listing). */
  const latestMetadata = async (threadId: string): Promise<Record<string, unknown>> => {
    const { saver: cp } = await saver();
    const tuple = await cp.getTuple({ configurable: { thread_id: threadId } });
    return (tuple?.metadata ?? {}) as Record<string, unknown>;
  };

  /** Every thread, newest checkpoint first, with the graph it ran. */
  async function threads(): Promise<ThreadInfo[]> {
    const { saver: cp } = await saver();
    const seen = new Map<string, ThreadInfo>();
    for await (const t of cp.list({})) {
      const id = String(t.config.configurable?.thread_id);
      if (seen.has(id) || t.config.configurable?.checkpoint_ns) continue;
      const graphPath = (t.metadata as Record<string, unknown> | undefined)?.[GRAPH_KEY];
      seen.set(id, {
        threadId: id,
        ...(typeof graphPath === "string" ? { graph: graphPath } : {}),
        checkpointId: String(t.config.configurable?.checkpoint_id),
        updatedAt: t.checkpoint.ts,
      });
    }
    return [...seen.values()].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  }

  return {
    threads,
    /** The graph a thread ran (a spec path), when it was run by graphspec. */
    async graphOf(threadId: string): Promise<string | undefined> {
      const graph = (await latestMetadata(threadId))[GRAPH_KEY];
      return typeof graph === "string" ? graph : undefined;
    },
    /** The context stored with a thread (secret keys are never stored). */
    async contextOf(threadId: string): Promise<Record<string, unknown> | undefined> {
      const stored = (await latestMetadata(threadId))[CONTEXT_KEY];
      return stored && typeof stored === "object" ? (stored as Record<string, unknown>) : undefined;
    },
    /** Deletes a thread's checkpoints. */
    async deleteThread(threadId: string): Promise<void> {
      await (await saver()).saver.deleteThread(threadId);
    },
    /** Deletes every thread whose id starts with `prefix` (a data deletion request); returns their ids. */
    async deleteThreads(prefix: string): Promise<string[]> {
      if (!prefix)
        throw new Error("a prefix is required: deleting every thread is not what a prefix means");
      const ids = (await threads()).map((t) => t.threadId).filter((id) => id.startsWith(prefix));
      const { saver: cp } = await saver();
      for (const id of ids) await cp.deleteThread(id);
      return ids;
    },
  };
}
