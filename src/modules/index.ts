/**
 * Module and graph references of a spec: finding them, resolving them to files inside the project,
 * and loading the modules. Used by check/ (to report problems) and compile/ (to build the graph).
 */
export { isLangChainTool } from "./exports.js";
export { GRAPH_EXTENSIONS, MODULE_EXTENSIONS, resolveFile } from "./files.js";
export { loadModule, type Shared, sharedIn } from "./load.js";
export * from "./refs.js";
export * from "./resolve.js";
