/**
 * An Executor that loads the run stage (and LangGraph) on its first call, for the package entry:
 * `import { createExecutor } from "graphspec"` must stay as cheap as validating. Typed as the
 * Executor interface, so a member added there cannot be forgotten here.
 */
import type { Executor, ExecutorOptions } from "./executor-api.js";
import { ExecutorClosedError } from "./executor-closed.js";

export function lazyExecutor(options: ExecutorOptions = {}): Executor {
  let loaded: Promise<Executor> | undefined;
  let closed = false;
  const real = (call: string): Promise<Executor> => {
    // Closed before it ever loaded: nothing to load now (a loaded one refuses by itself).
    if (closed && !loaded) return Promise.reject(new ExecutorClosedError(call));
    loaded ??= import("./executor.js").then((m) => m.createExecutor(options));
    return loaded;
  };
  return {
    run: async (graph, opts) => (await real("run")).run(graph, opts),
    resume: async (graph, opts) => (await real("resume")).resume(graph, opts),
    async *stream(graph, opts) {
      yield* (await real("stream")).stream(graph, opts);
    },
    inspect: async (threadId, graph) => (await real("inspect")).inspect(threadId, graph),
    history: async (threadId, graph, opts) =>
      (await real("history")).history(threadId, graph, opts),
    state: async (threadId, graph, opts) => (await real("state")).state(threadId, graph, opts),
    updateState: async (threadId, values, opts) =>
      (await real("updateState")).updateState(threadId, values, opts),
    threads: async () => (await real("threads")).threads(),
    threadsSince: async (cursor) => (await real("threadsSince")).threadsSince(cursor),
    graphOf: async (threadId) => (await real("graphOf")).graphOf(threadId),
    contextOf: async (threadId) => (await real("contextOf")).contextOf(threadId),
    deleteThread: async (threadId) => (await real("deleteThread")).deleteThread(threadId),
    deleteThreads: async (prefix) => (await real("deleteThreads")).deleteThreads(prefix),
    // Closing an executor that never ran anything loads nothing.
    close: async () => {
      closed = true;
      return loaded ? (await loaded).close() : undefined;
    },
  };
}
