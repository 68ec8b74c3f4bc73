/** The executor as the run, resume and threads commands set it up: graphs/ and .graphspec/ under the working directory. */
import { resolve } from "node:path";
import type { Executor, ExecutorOptions } from "../run/executor-api.js";
import type { Io } from "./io.js";
import { UsageError } from "./io.js";

const CHOICES = ["memory", "sqlite", "postgres"];

/**
 * Runs `work` with an executor, and closes it after (a PostgreSQL pool would keep the process
 * alive). The checkpointer is `--checkpointer`, else GRAPHSPEC_CHECKPOINTER, else sqlite.
 */
export async function withExecutor<T>(
  io: Io,
  checkpointer: string | undefined,
  extra: Omit<ExecutorOptions, "dir" | "checkpointer" | "sqlitePath">,
  work: (exec: Executor) => Promise<T>,
): Promise<T> {
  const choice = checkpointer ?? process.env.GRAPHSPEC_CHECKPOINTER ?? "sqlite";
  if (!CHOICES.includes(choice)) {
    throw new UsageError(`--checkpointer must be memory, sqlite or postgres, not "${choice}"`);
  }
  // Loaded here, not at the top: `graphspec validate` must not load LangGraph.
  const { createExecutor } = await import("../run/executor.js");
  const exec = createExecutor({
    dir: resolve(io.cwd, "graphs"),
    checkpointer: choice as "memory" | "sqlite" | "postgres",
    sqlitePath: resolve(io.cwd, ".graphspec/state.db"),
    ...extra,
  });
  try {
    return await work(exec);
  } finally {
    await exec.close();
  }
}
