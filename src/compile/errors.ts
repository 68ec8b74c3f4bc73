/**
 * Errors of the compile stage and of compiled graphs at run time. Each names where it happened
 * (the spec file and field, or the node and channel), what is wrong, and how to fix it; none
 * carries a user-facing stack trace. The executor turns them into structured results.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { RunErrorCode } from "../diagnostics/run-error-catalog.js";

export type { RunErrorCode };

/** A spec that cannot be compiled: it has errors, or something it references cannot be used. */
export class CompileError extends Error {
  override readonly name = "CompileError";
  readonly diagnostics: readonly Diagnostic[];

  constructor(message: string, diagnostics: readonly Diagnostic[] = []) {
    super(message);
    this.diagnostics = diagnostics;
  }
}

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

/** A short, JSON-like rendering of a value for an error message. */
export function preview(value: unknown, max = 80): string {
  let text: string;
  try {
    text =
      typeof value === "string"
        ? JSON.stringify(value)
        : value === undefined
          ? "undefined"
          : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
