/** The compile stage: specs into LangGraph graphs. May import @langchain/*; spec/, check/ and expr/ never do. */
export { compile, type SpecGraph } from "./compile.js";
export { CompileError } from "./compile-error.js";
export { GraphspecRunError } from "./graphspec-run-error.js";
export type { ScriptedTurn, Scripts } from "./models/index.js";
export type { CompileOptions } from "./options.js";
