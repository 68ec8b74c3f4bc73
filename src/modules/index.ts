/**
 * Module and graph references of a spec: finding them, resolving them to files inside the project,
 * and learning what the modules export — by parsing them (static/, validate's default), by loading
 * them in a separate process (isolated/, `validate --load-modules`), or by importing them here
 * (load.ts, for compile and run). Used by check/ (to report problems) and compile/ (to build the graph).
 */
export { type ExportFacts, isLangChainTool } from "./export-facts.js";
export { GRAPH_EXTENSIONS, MODULE_EXTENSIONS, realpathLoose, resolveFile } from "./files.js";
export {
  DEFAULT_LOAD_TIMEOUT_MS,
  type IsolationOptions,
  isolatedInspector,
} from "./isolated/isolated-inspector.js";
export { inProcessInspector, loadModule, moduleCacheKey } from "./load.js";
export {
  LOCK_COMMAND,
  LOCK_FILE,
  type LockedMcpServer,
  type LockedMcpTool,
  type LockedModule,
  type LockRead,
  lockCovers,
  lockKey,
  lockText,
  parseLock,
  readLock,
  type ToolLock,
} from "./lock/lock-file.js";
export { lockedInspector } from "./lock/locked-inspector.js";
export { type McpServerIdentity, mcpServerCwd, mcpServerIdentity } from "./lock/mcp-identity.js";
export { moduleHash } from "./lock/module-hash.js";
export type { ModuleInspector, ModuleReport } from "./module-report.js";
export { type ModuleVersions, moduleVersions } from "./module-versions.js";
export * from "./refs.js";
export * from "./resolve.js";
export { type Shared, sharedIn } from "./shared.js";
export { staticInspector } from "./static/static-exports.js";
