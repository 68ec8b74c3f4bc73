/**
 * Spec values that hold templates (`values`, `args`, `payload`, `write`, `with`, ...) compiled once
 * into evaluators. A run-time expression failure becomes a GraphspecRunError that points at the
 * expression in the spec file (file:line:col) and names the node.
 */

import {
  type ExprEnvironment,
  ExprError,
  ExprLimitError,
  isTemplate,
  type Scope,
} from "../expr/index.js";
import { isObject } from "../spec/data.js";
import { locateSpan, type SpecDocument } from "../spec/document.js";
import { spanInScalar } from "../spec/scalar-spans.js";
import type { Path } from "../spec/source-map.js";
import { GraphspecRunError } from "./graphspec-run-error.js";

export type Evaluate = (variables: Readonly<Record<string, unknown>>) => unknown;

/** "graphs/triage.yaml:12:14": where a spec path (and an offset range in its string) stands. */
export function locationOf(
  doc: SpecDocument,
  path: Path,
  range?: { start: number; end: number },
  text?: string,
): string {
  if (!doc.map.has(path)) return doc.file;
  const span =
    (range && text !== undefined && spanInScalar(doc, path, text, range.start, range.end)) ||
    doc.map.span(path, "value");
  const { file, line, column } = locateSpan(doc, span);
  return `${file}:${line}:${column}`;
}

export interface ValueCompiler {
  doc: SpecDocument;
  expr: ExprEnvironment;
  /** The node the values belong to, for error messages; undefined for edges. */
  node?: string;
  /** The cost budget of one evaluation (the spec's `limits.expression_cost`). */
  maxCost?: number | undefined;
}

function expressionFailure(
  c: ValueCompiler,
  path: Path,
  text: string,
  e: unknown,
): GraphspecRunError {
  const err = e as ExprError;
  const at = locationOf(c.doc, path, err instanceof ExprError ? err : undefined, text);
  const who = c.node ? `node \`${c.node}\`` : "an edge";
  // Over its budget: a code of its own, since the fix is to the expression or the limit, not the data.
  const limit = err instanceof ExprLimitError;
  return new GraphspecRunError(
    limit ? "expression-limit" : "expression",
    `${who}: the expression at ${at} ${limit ? "was stopped" : "failed"}: ${err?.message ?? String(e)}`,
    {
      ...(c.node ? { node: c.node } : {}),
      hint: err?.hint ?? "guard reads of channels that may be empty with `has(state.name)`",
      cause: e,
    },
  );
}

/** An evaluator for one template string (or a literal string). */
export function compileText(c: ValueCompiler, path: Path, text: string, scope: Scope): Evaluate {
  if (!isTemplate(text)) return () => text;
  const template = c.expr.compileTemplate(text, scope, { maxCost: c.maxCost });
  return (variables) => {
    try {
      return template.evaluate(variables);
    } catch (e) {
      throw expressionFailure(c, path, text, e);
    }
  };
}

/** An evaluator for a bare CEL expression (`when`, `over`). */
export function compileCel(c: ValueCompiler, path: Path, source: string, scope: Scope): Evaluate {
  const program = c.expr.compile(source, scope, { maxCost: c.maxCost });
  return (variables) => {
    try {
      return program.evaluate(variables);
    } catch (e) {
      throw expressionFailure(c, path, source, e);
    }
  };
}

const hasTemplate = (value: unknown): boolean =>
  typeof value === "string"
    ? isTemplate(value)
    : Array.isArray(value)
      ? value.some(hasTemplate)
      : isObject(value) && Object.values(value).some(hasTemplate);

/** An evaluator for a value whose strings, at any depth, are templates. */
export function compileValue(c: ValueCompiler, path: Path, value: unknown, scope: Scope): Evaluate {
  if (!hasTemplate(value)) {
    // Each run gets its own copy: a node of the user's may mutate what it is given.
    if (value === null || typeof value !== "object") return () => value;
    const text = JSON.stringify(value);
    return () => JSON.parse(text);
  }
  if (typeof value === "string") return compileText(c, path, value, scope);
  if (Array.isArray(value)) {
    const items = value.map((v, i) => compileValue(c, [...path, i], v, scope));
    return (variables) => items.map((item) => item(variables));
  }
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([k, v]) => [k, compileValue(c, [...path, k], v, scope)] as const,
  );
  return (variables) => {
    const out: Record<string, unknown> = {};
    for (const [k, evaluate] of entries) out[k] = evaluate(variables);
    return out;
  };
}

/**
 * A node's `write`: a channel name (the whole result goes there) or a map of templates over the
 * result, which is the variable `local`. Returns the update to apply.
 */
export function compileWrite(
  c: ValueCompiler,
  path: Path,
  write: unknown,
  scope: Scope,
  local: string,
): (variables: Readonly<Record<string, unknown>>) => Record<string, unknown> {
  if (typeof write === "string") return (variables) => ({ [write]: variables[local] });
  const evaluate = compileValue(c, path, write ?? {}, scope);
  return (variables) => evaluate(variables) as Record<string, unknown>;
}
