/**
 * What a thread remembers from its runs, read from one checkpoint's metadata (checkpointer.ts puts
 * it there): its context (secrets left out), chosen model and tool allowlist. A state update
 * (`updateState`, a fork) runs with that context — LangGraph's `updateState` takes none, and a
 * graph whose edges or nodes read a required context field would refuse the write — and passes
 * all of it on, so the new checkpoint remembers what the one it was written on did.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { atCheckpoint } from "./checkpoint-at.js";
import { ALLOWED_TOOLS_KEY, CONTEXT_KEY, MODEL_KEY } from "./checkpoint-keys.js";

const REMEMBERED = [CONTEXT_KEY, MODEL_KEY, ALLOWED_TOOLS_KEY] as const;

/** The remembered keys of the thread's checkpoint `checkpointId` (latest when not given), as `configurable` takes them. */
export async function rememberedKeys(
  saver: BaseCheckpointSaver,
  threadId: string,
  checkpointId?: string,
): Promise<Record<string, unknown>> {
  const tuple = await saver.getTuple({
    configurable:
      checkpointId === undefined ? { thread_id: threadId } : atCheckpoint(threadId, checkpointId),
  });
  const metadata = (tuple?.metadata ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    REMEMBERED.filter((k) => metadata[k] !== undefined).map((k) => [k, metadata[k]]),
  );
}

/** The context among remembered keys (undefined: the thread's runs were given none). */
export const rememberedContext = (
  keys: Record<string, unknown>,
): Record<string, unknown> | undefined => {
  const context = keys[CONTEXT_KEY];
  return context && typeof context === "object" ? (context as Record<string, unknown>) : undefined;
};
