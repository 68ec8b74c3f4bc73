/**
 * Keeps a thread's place in its scripts with the thread, so a resume in another process (the
 * CLI's `resume`, another server worker) continues the script where the thread's last run left
 * it. The positions are a pending write of the thread's latest checkpoint, under a task id no
 * task of the graph has (LangGraph passes over it, as over step-failure.ts's record): written when
 * a run ends — failed or paused in the middle of a step too, when the calls of that step were
 * made after the last checkpoint — and read when the next run starts.
 *
 * Each checkpoint a scripted run wrote also keeps where the scripts stood once its step ended
 * (`STEP_CHANNEL`): a fork of it (a state update, which calls no model) or a run from it takes the
 * turns the steps after it took, not those of a step a pause or a failure cut in the middle.
 */
import { randomUUID } from "node:crypto";
import type { BaseCheckpointSaver, CheckpointTuple } from "@langchain/langgraph";
import type { ScriptPositions } from "./models/script-run.js";

const CHANNEL = "graphspec:script-positions";
const STEP_CHANNEL = "graphspec:script-positions-at-step-end";
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

/** The newest positions of `kind` kept with a checkpoint, if any. */
const keptAt = (
  tuple: CheckpointTuple,
  kind: typeof CHANNEL | typeof STEP_CHANNEL = CHANNEL,
): ScriptPositions | undefined => {
  const kept = (tuple.pendingWrites ?? [])
    .filter(([taskId, channel]) => channel === kind && taskId.startsWith(TASK_PREFIX))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .at(-1)?.[2];
  return isPositions(kept) ? kept : undefined;
};

/** How far back a checkpoint without positions looks for its parents' (a fork's, an update's). */
const PARENTS_LOOKED_AT = 100;

/**
 * The thread's positions and the checkpoint they were read at; none for a new thread. A
 * checkpoint with none of its own — a fork or a state update, which calls no model — has its
 * nearest parent's.
 */
export async function readPositions(
  saver: BaseCheckpointSaver,
  configurable: Configurable,
): Promise<{ positions: ScriptPositions; checkpointId?: string }> {
  const root = rootOf(configurable);
  const tuple = root && (await saver.getTuple(root));
  if (!tuple) return { positions: {} };
  // Its own: where the last run on it stopped (a pause, a failure) or, else, where its step ended.
  let positions = keptAt(tuple) ?? keptAt(tuple, STEP_CHANNEL);
  let at: CheckpointTuple | undefined = tuple;
  for (let n = 0; !positions && at?.parentConfig && n < PARENTS_LOOKED_AT; n++) {
    at = await saver.getTuple(at.parentConfig);
    // A parent's: where its step ended (one kept before step ends were, where a run stopped).
    positions = at && (keptAt(at, STEP_CHANNEL) ?? keptAt(at));
  }
  return {
    positions: positions ?? {},
    checkpointId: tuple.config.configurable?.checkpoint_id as string | undefined,
  };
}

/**
 * Keeps with each checkpoint a run wrote (newest first, back to the one it started from) where
 * the scripts stood once that checkpoint's step ended (`positionsAt`), beside `keepPositions`'s on
 * the last one, which counts the calls of a step that failed or paused after it too.
 */
export async function keepStepPositions(
  saver: BaseCheckpointSaver,
  configurable: Configurable,
  positionsAt: (step: number) => ScriptPositions,
  startedAt: string | undefined,
): Promise<void> {
  const threadId = configurable?.thread_id;
  if (typeof threadId !== "string") return;
  const latest = await saver.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } });
  let at = latest;
  for (let n = 0; at && n < PARENTS_LOOKED_AT; n++) {
    const id = at.config.configurable?.checkpoint_id as string | undefined;
    const step = at.metadata?.step;
    if (!id || id === startedAt || typeof step !== "number") return;
    // Kept even when empty: no turn taken yet is a place too (a step before any model call).
    await saver.putWrites(
      { configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: id } },
      [[STEP_CHANNEL, positionsAt(step)]],
      `${TASK_PREFIX}${new Date().toISOString()}:${randomUUID()}`,
    );
    at = at.parentConfig ? await saver.getTuple(at.parentConfig) : undefined;
  }
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
