/**
 * graphspec's programmatic API. The validate path (loadSpec, validate) never loads LangChain.
 */
export { CATALOG, RULE_NAMES, type RuleName } from "./check/catalog.js";
export type { ValidateOptions } from "./check/context.js";
export type { Diagnostic, Severity } from "./check/diagnostic.js";
export { validate } from "./check/validate.js";
export type { SpecDocument } from "./spec/document.js";
export { LOAD_LIMITS, loadSpec, parseSpec, readSpec, SpecError } from "./spec/load.js";
export type * from "./spec/spec-types.js";
