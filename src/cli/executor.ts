/** The executor as the run, resume and threads commands set it up: graphs/ and .graphspec/ under the working directory. */
import { resolve } from "node:path";
import type { ExecutorOptions } from "../run/executor.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";

export async function cliExecutor(
  io: Io,
  checkpointer: string | undefined,
  extra: Omit<ExecutorOptions, "dir" | "checkpointer" | "sqlitePath"> = {},
) {
  if (checkpointer !== "memory" && checkpointer !== "sqlite") {
    throw new UsageError(`--checkpointer must be memory or sqlite, not "${checkpointer}"`);
  }
  // Loaded here, not at the top: `graphspec validate` must not load LangGraph.
  const { createExecutor } = await import("../run/executor.js");
  return createExecutor({
    dir: resolve(io.cwd, "graphs"),
    checkpointer,
    sqlitePath: resolve(io.cwd, ".graphspec/state.db"),
    ...extra,
  });
}
