/**
 * Why a thread's last step failed, kept with the thread so that reading it later (`inspect`,
 * `graphspec threads show`) says `failed` with the same error the run returned. LangGraph keeps
 * only the message and class name of a failed task's error; graphspec adds the whole RunError
 * (code, node, hint — secrets already scrubbed) as a pending write of the checkpoint the step
 * failed on, under a task id of its own that no task of the graph has, so LangGraph passes over
 * it when the thread is resumed.
 */
import { randomUUID } from "node:crypto";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { toRunError } from "./classify-error.js";
import type { RunError } from "./result.js";

const CHANNEL = "graphspec:run-error";
const TASK_PREFIX = "graphspec:run-error:";

/** What of LangGraph's StateSnapshot is read here. */
interface Snapshot {
  config?: { configurable?: Record<string, unknown> };
  tasks: readonly { name: string; error?: unknown }[];
}

const failedTask = (snapshot: Snapshot) => snapshot.tasks.find((t) => t.error !== undefined);

const checkpointOf = (snapshot: Snapshot) => {
  const c = snapshot.config?.configurable;
  return typeof c?.thread_id === "string" && typeof c.checkpoint_id === "string"
    ? { thread_id: c.thread_id, checkpoint_ns: "", checkpoint_id: c.checkpoint_id }
    : undefined;
};

/** Keeps a run's error with the checkpoint its last step failed on (when a step failed). */
export async function keepFailure(
  saver: BaseCheckpointSaver,
  snapshot: Snapshot,
  error: RunError,
): Promise<void> {
  const configurable = checkpointOf(snapshot);
  if (!configurable || !failedTask(snapshot)) return;
  // The time first, so the newest record sorts last; the uuid keeps two records apart.
  const taskId = `${TASK_PREFIX}${new Date().toISOString()}:${randomUUID()}`;
  await saver.putWrites({ configurable }, [[CHANNEL, error]], taskId);
}

/** Why the thread's last step failed, or undefined when it did not fail. */
export async function failureOf(
  saver: BaseCheckpointSaver,
  snapshot: Snapshot,
): Promise<RunError | undefined> {
  const task = failedTask(snapshot);
  const configurable = checkpointOf(snapshot);
  if (!task || !configurable) return undefined;
  const tuple = await saver.getTuple({ configurable });
  const kept = (tuple?.pendingWrites ?? [])
    .filter(([taskId, channel]) => channel === CHANNEL && taskId.startsWith(TASK_PREFIX))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .at(-1)?.[2] as RunError | undefined;
  if (kept && typeof kept.code === "string" && typeof kept.message === "string") return kept;
  // Written by another program, or before graphspec kept errors: classify what LangGraph kept.
  const stored = task.error as { message?: unknown; name?: unknown };
  const error = Object.assign(new Error(String(stored?.message ?? stored)), {
    name: typeof stored?.name === "string" ? stored.name : "Error",
  });
  return toRunError(error, task.name);
}
