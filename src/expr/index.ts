/**
 * The expression stage: CEL and `${{ }}` templates, checked against a spec's declared types and
 * evaluated on JSON-like values. Used by check/ (validation) and compile/ (run time).
 * Imports only the CEL library: never @langchain/*, never check/.
 */
export { isAssignable } from "./assignable.js";
export { ConversionError } from "./convert.js";
export { DEFAULT_EXPRESSION_COST } from "./cost-budget.js";
export { type CheckResult, ExprEnvironment, type TemplateCheck } from "./environment.js";
export {
  ExprError,
  ExprEvalError,
  ExprLimitError,
  type ExprProblem,
  type ExprProblemKind,
  ExprSyntaxError,
  ExprTypeError,
} from "./expr-error.js";
export { type FieldRead, fieldReads } from "./field-reads.js";
export { recordOfFields, typeFromSchema } from "./from-schema.js";
export { EXPR_LIMITS } from "./limits.js";
export { valueMapLiterals } from "./map-literals.js";
export type { CompiledExpression, CompiledTemplate, ProgramOptions } from "./program.js";
export { reducerName, writeType } from "./reducers.js";
export { inScopeHint, nameList, type Scope, VARIABLE_HOMES } from "./scope.js";
export {
  type ExprPart,
  isTemplate,
  type ParsedTemplate,
  parseTemplate,
  renderText,
  type TemplatePart,
  type TextPart,
} from "./template.js";
export {
  ENV_TYPE,
  ERROR_TYPE,
  type ExprType,
  formatType,
  MESSAGE_TYPE,
  parseCelType,
  type RecordType,
  T,
} from "./types.js";
