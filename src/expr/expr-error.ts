/**
 * The expression stage's errors. Everything `expr/` throws is an `ExprError`, so callers (the
 * checker, the run-time) can catch one type and name the node and expression themselves.
 */

/**
 * Which check an expression failed, as the validator's rules split them: `unsafe-key` is a map
 * literal's `__proto__` key, `regex` a `matches()` pattern the linear-time engine cannot run.
 */
export type ExprProblemKind = "syntax" | "type" | "unknown-key" | "unsafe-key" | "regex";

/** A problem with an expression, located by offsets in the source it was given (template or bare CEL). */
export interface ExprProblem {
  kind: ExprProblemKind;
  message: string;
  hint?: string | undefined;
  /**
   * A misspelt name and what it could have been: a consumer with a did-you-mean helper
   * prefers "did you mean `x`?" to `hint` when `word` is close to a candidate.
   */
  suggest?: { word: string; candidates: readonly string[] } | undefined;
  /** Offsets in the source: [start, end). */
  start: number;
  end: number;
}

export class ExprError extends Error {
  /** The template or CEL source the error is about. */
  readonly source: string;
  /** Offsets of the offending part in `source`. */
  readonly start: number;
  readonly end: number;
  readonly hint: string | undefined;

  constructor(
    message: string,
    source: string,
    range: { start: number; end: number; hint?: string | undefined },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ExprError";
    this.source = source;
    this.start = range.start;
    this.end = range.end;
    this.hint = range.hint;
  }
}

/** The source does not parse (CEL syntax, an unterminated `${{`, a limit). */
export class ExprSyntaxError extends ExprError {
  override readonly name = "ExprSyntaxError";
}

/** The expression does not type-check in its scope, or reads a state key that is not declared. */
export class ExprTypeError extends ExprError {
  override readonly name = "ExprTypeError";
}

/** Evaluation failed at run time (a missing key, division by zero, an unsupported value, ...). */
export class ExprEvalError extends ExprError {
  override readonly name: string = "ExprEvalError";
}

/** An evaluation ran over its cost budget (`limits.expression_cost`); the range is where. */
export class ExprLimitError extends ExprEvalError {
  override readonly name = "ExprLimitError";
}

/** The error for a problem found while checking. */
export function problemError(p: ExprProblem, source: string): ExprError {
  const Ctor = p.kind === "syntax" ? ExprSyntaxError : ExprTypeError;
  return new Ctor(p.message, source, p);
}
