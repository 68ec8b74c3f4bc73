/**
 * graphspec's programmatic API. The validate path (loadSpec, validate) never loads LangChain:
 * `compile` loads the compile stage (and LangGraph) on first use.
 */

export { type LoadModulesOptions, type ValidateOptions, validate } from "./check/validate.js";
export { CompileError } from "./compile/compile-error.js";
export { GraphspecRunError } from "./compile/graphspec-run-error.js";
export type { CompileOptions, ScriptedTurn, Scripts, SpecGraph } from "./compile/index.js";
export { McpConnections } from "./compile/mcp/mcp-connections.js";
export {
  ProviderRecording,
  RECORDING_VERSION,
  type RecordedCall,
  type RecordingFile,
} from "./compile/models/recording.js";
export type { RunStandIn } from "./compile/models/run-stand-in.js";
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

export type { PlatformConfig, PlatformGraphFactory } from "./server/platform-graph.js";

/**
 * A spec as a graph factory the official LangGraph server loads (the entry module of
 * `graphspec export langgraph`): compiled now, without a checkpointer (the platform gives its own).
 */
export async function platformGraph(
  spec: string | URL,
): Promise<import("./server/platform-graph.js").PlatformGraphFactory> {
  return (await import("./server/platform-graph.js")).platformGraph(spec);
}

export { PackageError } from "./peers/package-error.js";
export { CheckpointerError } from "./run/checkpointer-error.js";
export type { RunEvent } from "./run/events.js";
export type {
  Executor,
  ExecutorOptions,
  HistoryEntry,
  ResumeOptions,
  RunChoiceOptions,
  RunOptions,
  StandInCatalog,
  StandInOffer,
  StreamOptions,
  ThreadInfo,
  ThreadState,
} from "./run/executor-api.js";
export { ExecutorClosedError } from "./run/executor-closed.js";
export type { GraphStreamMode, GraphStreamRequest } from "./run/graph-chunks.js";
export type { RunLimits } from "./run/limits.js";
export type {
  PendingInterrupt,
  RunError,
  RunPhase,
  RunResult,
  ThrottleReason,
  TokenUsage,
} from "./run/result.js";
export { RunArgumentError } from "./run/run-arguments.js";
export type { SizeLimits } from "./run/size-limits.js";
export {
  type GraphMessage,
  type GraphMessageInput,
  type GraphTypes,
  type RefusedResume,
  type ToolApprovalAnswer,
  type ToolApprovalRequest,
  type TypedAnswer,
  type TypedGraph,
  type TypedInterrupt,
  type TypedInvokeOptions,
  type TypedInvokeResult,
  type TypedRunResult,
  type TypedRuns,
  typedGraph,
  typedRuns,
} from "./run/typed-graph.js";

import { loadPeer } from "./peers/load-peer.js";
import type { Executor, ExecutorOptions } from "./run/executor-api.js";
import { lazyExecutor } from "./run/lazy-executor.js";

/**
 * The executor: runs graphs by name (`graphs/NAME.yaml`) or path on threads, with a checkpointer
 * (default SQLite, `.graphspec/state.db`), and returns RunResults. LangGraph loads on first use.
 */
export function createExecutor(options: ExecutorOptions = {}): Executor {
  return lazyExecutor(options);
}

export type { DevExecutor, DevExecutorOptions } from "./dev/dev-executor.js";
export type { ReloadEvent } from "./dev/reload-event.js";

import type { DevExecutor, DevExecutorOptions } from "./dev/dev-executor.js";

/**
 * The executor of `graphspec dev`: graphs of `dir` reloaded in this process when their files
 * change (docs/dev.md). Resolves once every spec was loaded and the watcher is watching.
 */
export async function createDevExecutor(options: DevExecutorOptions = {}): Promise<DevExecutor> {
  const stage = await loadPeer("watch", () => import("./dev/dev-executor.js"));
  const dev = stage.createDevExecutor(options);
  await dev.ready;
  return dev;
}

export type { Authenticator, Caller } from "./server/auth.js";
export type {
  FolderCatalogOptions,
  GraphCatalog,
  GraphEntry,
} from "./server/graph-catalog.js";
export type { RunningServer, ServeOptions } from "./server/serve.js";

/**
 * The HTTP API the official `@langchain/langgraph-sdk` Client talks to (docs/server.md), on a
 * port. Loaded on first use, like the executor.
 */
export async function startServer(
  options: import("./server/serve.js").ServeOptions,
): Promise<import("./server/serve.js").RunningServer> {
  return (await loadPeer("server", () => import("./server/serve.js"))).startServer(options);
}

/**
 * The graphs of a folder as the server's assistants, one per spec. With `served` (a dev
 * executor's `servedSpec`), each describes the version that serves rather than the file.
 */
export async function folderCatalog(
  dir: string,
  options: import("./server/graph-catalog.js").FolderCatalogOptions = {},
): Promise<import("./server/graph-catalog.js").GraphCatalog> {
  return (await import("./server/graph-catalog.js")).folderCatalog(dir, options);
}

/** Tenants from an API-key file (`{ "key": "tenant" }`), or from a LangGraph `Auth` module (`path:export`). */
export async function serverAuth(
  how: { apiKeys: string } | { handler: string; cwd?: string },
): Promise<import("./server/auth.js").Authenticator> {
  const auth = await import("./server/auth.js");
  return "apiKeys" in how
    ? auth.apiKeyAuth(how.apiKeys)
    : auth.handlerAuth(how.handler, how.cwd ?? process.cwd());
}
