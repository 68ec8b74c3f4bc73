/**
 * Errors of the compile stage and of compiled graphs at run time. Each names where it happened
 * (the spec file and field, or the node and channel), what is wrong, and how to fix it; none
 * carries a user-facing stack trace. The executor turns them into structured results.
 */
import type { Diagnostic } from "../diagnostics/diagnostic.js";

/** A spec that cannot be compiled: it has errors, or something it references cannot be used. */
export class CompileError extends Error {
  override readonly name = "CompileError";
  readonly diagnostics: readonly Diagnostic[];

  constructor(message: string, diagnostics: readonly Diagnostic[] = []) {
    super(message);
    this.diagnostics = diagnostics;
  }
}

/** What went wrong while a compiled graph ran, by kind. */
export type RunErrorCode =
  | "invalid-input"
  | "invalid-context"
  | "invalid-write"
  | "expression"
  | "route-no-match"
  | "router-target"
  | "invalid-output"
  | "tool-error"
  | "subgraph"
  | "no-checkpointer"
  | "recursion-limit";

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
