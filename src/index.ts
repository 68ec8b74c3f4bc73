/**
 * graphspec's programmatic API. The validate path (loadSpec, validate) never loads LangChain:
 * `compile` loads the compile stage (and LangGraph) on first use.
 */

export { type LoadModulesOptions, type ValidateOptions, validate } from "./check/validate.js";
export { CompileError } from "./compile/compile-error.js";
export { GraphspecRunError } from "./compile/graphspec-run-error.js";
export type { CompileOptions, ScriptedTurn, Scripts, SpecGraph } from "./compile/index.js";
export type { Diagnostic, Severity } from "./diagnostics/diagnostic.js";
export { CATALOG, RULE_NAMES, type RuleName } from "./diagnostics/rule-catalog.js";
export {
  RUN_ERROR_CODES,
  RUN_ERRORS,
  type RunErrorCode,
} from "./diagnostics/run-error-catalog.js";
export type { SpecDocument } from "./spec/document.js";
export { LOAD_LIMITS, loadSpec, parseSpec, readSpec, SpecError } from "./spec/load.js";
export type * from "./spec/spec-types.generated.js";

import type { CompileOptions, SpecGraph } from "./compile/index.js";
import type { SpecDocument } from "./spec/document.js";

/**
 * Compiles a spec (a loaded document, or a path to a spec file) into a LangGraph graph.
 * Throws CompileError (the spec has errors, or something it references cannot be used) or SpecError.
 */
export async function compile(
  spec: SpecDocument | string,
  options?: CompileOptions,
): Promise<SpecGraph> {
  const stage = await import("./compile/index.js");
  return stage.compile(spec, options);
}

export { CheckpointerError } from "./run/checkpointer-error.js";
export type { RunEvent } from "./run/events.js";
export type {
  Executor,
  ExecutorOptions,
  HistoryEntry,
  ResumeOptions,
  RunOptions,
  StreamOptions,
  ThreadInfo,
  ThreadState,
} from "./run/executor-api.js";
export type { GraphStreamMode, GraphStreamRequest } from "./run/graph-chunks.js";
export type { RunLimits } from "./run/limits.js";
export type { PendingInterrupt, RunError, RunPhase, RunResult, TokenUsage } from "./run/result.js";
export type { SizeLimits } from "./run/size-limits.js";

import type { Executor, ExecutorOptions } from "./run/executor-api.js";
import { lazyExecutor } from "./run/lazy-executor.js";

/**
 * The executor: runs graphs by name (`graphs/NAME.yaml`) or path on threads, with a checkpointer
 * (default SQLite, `.graphspec/state.db`), and returns RunResults. LangGraph loads on first use.
 */
export function createExecutor(options: ExecutorOptions = {}): Executor {
  return lazyExecutor(options);
}
