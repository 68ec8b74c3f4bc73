/**
 * Keeps a thread's place in its scripts with the thread, so a resume in another process (the
 * CLI's `resume`, another server worker) continues the script where the thread's last run left
 * it. The positions are a pending write of the thread's latest checkpoint, under a task id no
 * task of the graph has (LangGraph passes over it, as over step-failure.ts's record): written when
 * a run ends — failed or paused in the middle of a step too, when the calls of that step were
 * made after the last checkpoint — and read when the next run starts.
 */
import { randomUUID } from "node:crypto";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { ScriptPositions } from "./models/script-run.js";

const CHANNEL = "graphspec:script-positions";
const TASK_PREFIX = "graphspec:script-positions:";

type Configurable = Record<string, unknown> | undefined;

/** The root checkpoint of the thread a run's config names (its latest, or the one it asks for). */
const rootOf = (configurable: Configurable) =>
  typeof configurable?.thread_id === "string"
    ? {
        configurable: {
          thread_id: configurable.thread_id,
          checkpoint_ns: "",
          ...(typeof configurable.checkpoint_id === "string"
            ? { checkpoint_id: configurable.checkpoint_id }
            : {}),
        },
      }
    : undefined;

const isPositions = (v: unknown): v is ScriptPositions =>
  typeof v === "object" &&
  v !== null &&
  Object.values(v).every((p) => typeof p?.calls === "number" && typeof p?.toolCallIds === "number");

/** The thread's positions and the checkpoint they were read at; none for a new thread. */
export async function readPositions(
  saver: BaseCheckpointSaver,
  configurable: Configurable,
): Promise<{ positions: ScriptPositions; checkpointId?: string }> {
  const root = rootOf(configurable);
  const tuple = root && (await saver.getTuple(root));
  if (!tuple) return { positions: {} };
  const kept = (tuple.pendingWrites ?? [])
    .filter(([taskId, channel]) => channel === CHANNEL && taskId.startsWith(TASK_PREFIX))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .at(-1)?.[2];
  return {
    positions: isPositions(kept) ? kept : {},
    checkpointId: tuple.config.configurable?.checkpoint_id as string | undefined,
  };
}

/** Keeps `positions` with the thread's latest checkpoint (unless nothing changed there). */
export async function keepPositions(
  saver: BaseCheckpointSaver,
  configurable: Configurable,
  positions: ScriptPositions,
  unchangedAt: string | undefined,
): Promise<void> {
  const threadId = configurable?.thread_id;
  if (typeof threadId !== "string" || !Object.keys(positions).length) return;
  const latest = await saver.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } });
  const checkpointId = latest?.config.configurable?.checkpoint_id as string | undefined;
  if (!checkpointId || checkpointId === unchangedAt) return;
  // The time first, so the newest record sorts last; the uuid keeps two records apart.
  const taskId = `${TASK_PREFIX}${new Date().toISOString()}:${randomUUID()}`;
  await saver.putWrites(
    { configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpointId } },
    [[CHANNEL, positions]],
    taskId,
  );
}
