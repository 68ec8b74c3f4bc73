/**
 * Evaluable programs. An expression is type-checked against its scope's declared types first
 * (environment.ts); it then runs in one shared environment where every variable is `dyn`,
 * on plain values converted at the boundary (convert.ts). Whatever goes wrong while running
 * surfaces as an ExprEvalError carrying the source and the offending range.
 */
import { Environment } from "@marcbachmann/cel-js";
import { ConversionError, fromCel, toCel } from "./convert.js";
import { ExprEvalError, ExprSyntaxError } from "./expr-error.js";
import { EXPR_LIMITS } from "./limits.js";
import { type Scope, VARIABLE_HOMES } from "./scope.js";
import { type ExprPart, type ParsedTemplate, renderText } from "./template.js";
import type { ExprType } from "./types.js";

export interface CompiledExpression {
  readonly source: string;
  /** The checked type of the result. */
  readonly type: ExprType;
  /**
   * Runs the expression on JSON-like values of the scope's variables (`{ state, context, output }`);
   * returns a JSON-like value. Throws ExprEvalError.
   */
  evaluate(variables: Readonly<Record<string, unknown>>): unknown;
}

export interface CompiledTemplate {
  readonly text: string;
  /** The expression's type for a whole `${{ expr }}`, else string. */
  readonly type: ExprType;
  /** The template's value: a whole expression's value, or the interpolated text. Throws ExprEvalError. */
  evaluate(variables: Readonly<Record<string, unknown>>): unknown;
}

import { withNumericEquality } from "./numeric-equality.js";

type Runner = (context: Record<string, unknown>) => unknown;

let runtime: Environment | undefined;
const runtimeEnv = (): Environment => {
  if (!runtime) {
    runtime = withNumericEquality(
      new Environment({ homogeneousAggregateLiterals: false, limits: EXPR_LIMITS.cel }),
    );
    for (const name of Object.keys(VARIABLE_HOMES)) runtime.registerVariable(name, "dyn");
  }
  return runtime;
};

/** A cel-js program for checked source; checked once more here (all dyn) so runs skip that step. */
function runner(source: string): Runner {
  try {
    const fn = runtimeEnv().parse(source);
    fn.check();
    return fn as Runner;
  } catch (e) {
    // Unreachable for checked source; kept so callers still see only expr/ errors.
    throw new ExprSyntaxError(String((e as Error)?.message ?? e).split("\n")[0]!, source, {
      start: 0,
      end: source.length,
    });
  }
}

/** The scope's variables as cel-js values. */
function celVariables(
  scope: Scope,
  variables: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, type] of Object.entries(scope.variables)) {
    if (Object.hasOwn(variables, name)) out[name] = toCel(variables[name], type);
  }
  return out;
}

/** Wraps anything thrown while converting or running into an ExprEvalError located in `source`. */
function evalError(e: unknown, source: string, offset: number, length: number): ExprEvalError {
  if (e instanceof ExprEvalError) return e;
  const err = e as { summary?: unknown; message?: unknown; range?: { start: number; end: number } };
  const raw = typeof err?.summary === "string" ? err.summary : String(err?.message ?? e);
  const message = raw
    .replace(/'([^']*)'/g, "`$1`")
    .replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());
  const range =
    e instanceof ConversionError || !err?.range
      ? { start: offset, end: offset + length }
      : { start: offset + err.range.start, end: offset + err.range.end };
  return new ExprEvalError(message, source, range, { cause: e });
}

export function compileProgram(source: string, type: ExprType, scope: Scope): CompiledExpression {
  const run = runner(source);
  return {
    source,
    type,
    evaluate(variables) {
      try {
        return fromCel(run(celVariables(scope, variables)));
      } catch (e) {
        throw evalError(e, source, 0, source.length);
      }
    },
  };
}

export function compileTemplateProgram(
  template: ParsedTemplate,
  type: ExprType,
  scope: Scope,
): CompiledTemplate {
  const parts = template.parts.map((p) =>
    p.kind === "expr" ? { part: p, run: runner(p.source) } : p,
  );
  const text = template.text;
  const runPart = (p: { part: ExprPart; run: Runner }, vars: Record<string, unknown>) => {
    try {
      return fromCel(p.run(vars));
    } catch (e) {
      throw evalError(e, text, p.part.start, p.part.source.length);
    }
  };
  const convert = (variables: Readonly<Record<string, unknown>>) => {
    try {
      return celVariables(scope, variables);
    } catch (e) {
      throw evalError(e, text, 0, text.length);
    }
  };
  return {
    text,
    type,
    evaluate(variables) {
      if (!template.parts.some((p) => p.kind === "expr")) {
        return template.parts.map((p) => (p.kind === "text" ? p.text : "")).join("");
      }
      const vars = convert(variables);
      if (template.whole) return runPart(parts[0] as { part: ExprPart; run: Runner }, vars);
      let out = "";
      for (const p of parts) {
        if ("run" in p) {
          const value = runPart(p, vars);
          try {
            out += renderText(value);
          } catch (e) {
            throw evalError(e, text, p.part.start, p.part.source.length);
          }
        } else out += p.text;
      }
      return out;
    },
  };
}
