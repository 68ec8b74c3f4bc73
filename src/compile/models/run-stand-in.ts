/**
 * A stand-in chosen for one run (`graphspec dev`'s page, docs/dev.md "Standing in for models"): a
 * fixture test's scripts or a recording answer for the spec's models in this run only, while other
 * runs of the same compiled graph reach the real provider. It travels in the run's `configurable`
 * under a `__` key, which LangGraph keeps out of checkpoints and stream metadata.
 */
import type { ProviderRecording } from "./recording.js";
import { ScriptQueues, type Scripts } from "./script.js";

/** Where a run's stand-in travels: its `configurable`, which LangGraph hands to every node and subgraph. */
export const STAND_IN_KEY = "__graphspec_stand_in";

/** What answers for the spec's models in one run: scripts (by script-key.ts's rule) or a recording. */
export type RunStandIn = { scripts: Scripts } | { recording: ProviderRecording };

/** The stand-in a run's `configurable` carries, if any. */
export function runStandIn(
  configurable: Record<string, unknown> | undefined,
): RunStandIn | undefined {
  const value = configurable?.[STAND_IN_KEY];
  if (!value || typeof value !== "object") return undefined;
  return "scripts" in value || "recording" in value ? (value as RunStandIn) : undefined;
}

/** One ScriptQueues per scripts stand-in: the book each run's ScriptRun reports to. */
const books = new WeakMap<Scripts, ScriptQueues>();

/** The queues of a scripts stand-in (a model without a script fails when called, saying so). */
export function standInBook(standIn: RunStandIn | undefined): ScriptQueues | undefined {
  if (!standIn || !("scripts" in standIn)) return undefined;
  let book = books.get(standIn.scripts);
  if (!book) {
    book = new ScriptQueues(standIn.scripts, { anyName: true });
    books.set(standIn.scripts, book);
  }
  return book;
}
