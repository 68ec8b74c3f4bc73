/** What the development loop reports: graphs loaded, reloaded, or a change refused with its diagnostics. */
import { CompileError } from "../compile/compile-error.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { SpecError } from "../spec/load.js";

export type ReloadEvent =
  /** Every spec in the graphs directory was loaded (or refused) and the watcher is watching. */
  | { type: "ready"; graphs: string[] }
  /** A change made a new version: new runs get it; runs in flight finish on theirs. */
  | {
      type: "reloaded";
      path: string;
      version: number;
      /** The changed files that caused it. */
      changed: string[];
      /** From the first change seen to the swap. */
      ms: number;
      /** What validate warns about in the new version (it has no errors, or it would not serve). */
      warnings?: readonly Diagnostic[];
    }
  /**
   * A change (or the first load) that does not build: the last good version, if any, keeps
   * serving. `diagnostics` are validate's, with positions; `message` says it in one line.
   */
  | {
      type: "rejected";
      path: string;
      changed: string[];
      message: string;
      diagnostics: readonly Diagnostic[];
      /** The version still served, if there is one. */
      kept?: number;
    };

/** The diagnostics a failed build carries (CompileError, SpecError), else none. */
export function diagnosticsOf(error: unknown): readonly Diagnostic[] {
  if (error instanceof CompileError || error instanceof SpecError) return error.diagnostics;
  return [];
}

export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
