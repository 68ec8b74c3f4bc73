/**
 * Which graph a thread ran is read from its newest root checkpoint: on a checkpointer graphspec
 * reads through `list` (memory, or one given as an object), asking for that one only. Before, every
 * run and every state read on a thread listed (and deserialized) its whole history, which grows
 * with each step. Through the package's executor, on LangGraph's MemorySaver.
 */

import type { RunnableConfig } from "@langchain/core/runnables";
import { MemorySaver } from "@langchain/langgraph";
import type { CheckpointListOptions } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { createExecutor } from "../../src/index.js";

const GRAPHS = new URL("../fixtures/server/graphs/", import.meta.url).pathname;

/** MemorySaver counting the checkpoints its `list` gives. */
class CountingSaver extends MemorySaver {
  listed = 0;
  override async *list(config: RunnableConfig, options?: CheckpointListOptions) {
    for await (const t of super.list(config, options)) {
      this.listed++;
      yield t;
    }
  }
}

describe("a thread's graph", () => {
  it("is read from its newest checkpoint, not its whole history", async () => {
    const saver = new CountingSaver();
    const exec = createExecutor({ dir: GRAPHS, checkpointer: saver });
    try {
      const threadId = "long-thread";
      for (let i = 0; i < 6; i++)
        expect((await exec.run("three-steps", { threadId, input: {} })).status).toBe("completed");
      // The history is long by now.
      expect((await exec.history(threadId))?.length).toBeGreaterThan(20);
      const before = saver.listed;
      const state = await exec.state(threadId);
      expect(state?.next).toEqual([]);
      expect(await exec.graphOf(threadId)).toMatch(/three-steps\.yaml$/);
      // One checkpoint for each of the two lookups (state and graphOf).
      expect(saver.listed - before).toBeLessThanOrEqual(2);
    } finally {
      await exec.close();
    }
  });
});
