/**
 * The threads a checkpointer keeps: listing them with the graph each ran (thread-listing.ts: one
 * query per store, no checkpoint loaded), what a thread remembers (its graph and its context), and
 * deleting them.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { ALLOWED_TOOLS_KEY, MODEL_KEY } from "./checkpoint-keys.js";
import type { ThreadInfo } from "./executor-api.js";
import { rememberedContext, rememberedKeys } from "./remembered-keys.js";
import type { ThreadListing } from "./thread-listing.js";

/** What a thread keeps from its runs (`keptOf`). */
export interface ThreadKeeps {
  context?: Record<string, unknown>;
  model?: string;
  allowedTools?: string[];
}

/** What a checkpointer knows of its threads (below). */
export type ThreadIndex = ReturnType<typeof threadIndex>;

export function threadIndex(
  store: () => Promise<{ saver: BaseCheckpointSaver; listing: ThreadListing }>,
) {
  /** Every thread, newest checkpoint first, with the graph it ran. */
  async function threads(): Promise<ThreadInfo[]> {
    const listed = await (await store()).listing.list();
    return listed.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  }
  /** The thread as its store lists it, when it exists. */
  const find = async (threadId: string) => (await (await store()).listing.list(threadId))[0];

  /**
   * What a thread keeps from its runs, from its latest checkpoint's metadata (read once): the
   * context (secret keys are never stored), the model they chose (`RunOptions.model`), the tool
   * allowlist they were given.
   */
  async function keptOf(threadId: string): Promise<ThreadKeeps> {
    const keys = await rememberedKeys((await store()).saver, threadId);
    const context = rememberedContext(keys);
    const model = keys[MODEL_KEY];
    const tools = keys[ALLOWED_TOOLS_KEY];
    return {
      ...(context ? { context } : {}),
      ...(typeof model === "string" ? { model } : {}),
      ...(Array.isArray(tools) ? { allowedTools: tools.map(String) } : {}),
    };
  }

  return {
    threads,
    /**
     * The threads with a checkpoint written after `cursor` (every thread without one), those with
     * other writes since (`touched`), and the cursor to ask from next; undefined when the store cannot say what is new (thread-listing.ts).
     */
    async threadsSince(
      cursor: string | undefined,
    ): Promise<{ threads: ThreadInfo[]; touched: string[]; cursor: string | undefined }> {
      const { listing } = await store();
      if (listing.since) return listing.since(cursor);
      return { threads: await threads(), touched: [], cursor: undefined };
    },
    /** The graph path stored with a thread's latest checkpoint, as stored: not checked. */
    async storedGraph(threadId: string): Promise<string | undefined> {
      return (await find(threadId))?.graph;
    },
    keptOf,
    /** The context stored with a thread (secret keys are never stored). */
    async contextOf(threadId: string): Promise<Record<string, unknown> | undefined> {
      return (await keptOf(threadId)).context;
    },
    /** Deletes a thread's checkpoints; whether it existed. */
    async deleteThread(threadId: string): Promise<boolean> {
      if (!(await find(threadId))) return false;
      await (await store()).saver.deleteThread(threadId);
      return true;
    },
    /** Deletes every thread whose id starts with `prefix` (a data deletion request); returns their ids. */
    async deleteThreads(prefix: string): Promise<string[]> {
      if (!prefix)
        throw new Error("a prefix is required: deleting every thread is not what a prefix means");
      const ids = (await threads()).map((t) => t.threadId).filter((id) => id.startsWith(prefix));
      const { saver } = await store();
      for (const id of ids) await saver.deleteThread(id);
      return ids;
    },
  };
}
