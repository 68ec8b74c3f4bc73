/**
 * A failure of a compiled graph at run time, in graphspec's terms: which node, which field, which
 * run error code, and a fix. The executor turns it into a RunResult's error; never a stack trace.
 */
import type { RunErrorCode } from "../diagnostics/run-error-catalog.js";

export interface RunErrorDetails {
  /** The node that failed (or whose edge did). */
  node?: string;
  /** The state channel, context key or field concerned. */
  field?: string;
  hint?: string;
  cause?: unknown;
}

/** A failure a run reports in graphspec's terms: which node, which field, which rule, and a fix. */
export class GraphspecRunError extends Error {
  override readonly name = "GraphspecRunError";
  readonly code: RunErrorCode;
  readonly node: string | undefined;
  readonly field: string | undefined;
  readonly hint: string | undefined;

  constructor(code: RunErrorCode, message: string, details: RunErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.node = details.node;
    this.field = details.field;
    this.hint = details.hint;
  }
}
