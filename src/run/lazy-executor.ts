/**
 * An Executor that loads the run stage (and LangGraph) on its first call, for the package entry:
 * `import { createExecutor } from "graphspec"` must stay as cheap as validating. Typed as the
 * Executor interface, so a member added there cannot be forgotten here.
 */
import type { Executor, ExecutorOptions } from "./executor-api.js";

export function lazyExecutor(options: ExecutorOptions = {}): Executor {
  let loaded: Promise<Executor> | undefined;
  const real = (): Promise<Executor> => {
    loaded ??= import("./executor.js").then((m) => m.createExecutor(options));
    return loaded;
  };
  return {
    run: async (graph, opts) => (await real()).run(graph, opts),
    resume: async (graph, opts) => (await real()).resume(graph, opts),
    async *stream(graph, opts) {
      yield* (await real()).stream(graph, opts);
    },
    inspect: async (threadId, graph) => (await real()).inspect(threadId, graph),
    history: async (threadId, graph, opts) => (await real()).history(threadId, graph, opts),
    state: async (threadId, graph, opts) => (await real()).state(threadId, graph, opts),
    updateState: async (threadId, values, opts) =>
      (await real()).updateState(threadId, values, opts),
    threads: async () => (await real()).threads(),
    threadsSince: async (cursor) => (await real()).threadsSince(cursor),
    graphOf: async (threadId) => (await real()).graphOf(threadId),
    contextOf: async (threadId) => (await real()).contextOf(threadId),
    deleteThread: async (threadId) => (await real()).deleteThread(threadId),
    deleteThreads: async (prefix) => (await real()).deleteThreads(prefix),
    // Closing an executor that never ran anything loads nothing.
    close: async () => (loaded ? (await loaded).close() : undefined),
  };
}
