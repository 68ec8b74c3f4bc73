/**
 * Evaluable programs. An expression is type-checked against its scope's declared types first
 * (environment.ts); it then runs in one shared environment where every variable is `dyn`,
 * on plain values converted at the boundary (convert.ts). Whatever goes wrong while running
 * surfaces as an ExprEvalError carrying the source and the offending range; an evaluation that
 * runs over its cost budget (cost-budget.ts) as an ExprLimitError.
 */
import { Environment } from "@marcbachmann/cel-js";
import { ConversionError, fromCel, toCel } from "./convert.js";
import {
  type BudgetExceeded,
  DEFAULT_EXPRESSION_COST,
  meterEvaluations,
  withBudget,
} from "./cost-budget.js";
import { ExprEvalError, ExprLimitError, ExprSyntaxError } from "./expr-error.js";
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

/** How a program runs: the cost budget of one evaluation. */
export interface ProgramOptions {
  /** Cost units one evaluation may spend (cost-budget.ts). Default 1,000,000. */
  maxCost?: number | undefined;
}

import { withNumericEquality } from "./numeric-equality.js";

type Runner = (context: Record<string, unknown>) => unknown;

let runtime: Environment | undefined;
const runtimeEnv = (): Environment => {
  if (!runtime) {
    runtime = meterEvaluations(
      withNumericEquality(
        new Environment({ homogeneousAggregateLiterals: false, limits: EXPR_LIMITS.cel }),
      ),
    );
    for (const name of Object.keys(VARIABLE_HOMES)) runtime.registerVariable(name, "dyn");
  }
  return runtime;
};

/**
 * A cel-js program for checked source; checked once more (all dyn) so runs skip that step.
 * cel-js evaluates the root node directly, every other node through the metered `run`
 * (cost-budget.ts): wrapped in `dyn(…)`, the expression itself is metered too. Offsets in what
 * it reports are in the wrapped source: `ROOT_SHIFT` more than in `source`.
 *
 * Made on the first evaluation, not at compile: the typed check (environment.ts) already said
 * the source is sound, and this second parse in the runtime environment is half of an
 * expression's cost — a 1,000-node spec compiles without paying it for nodes that have not run
 * (or never run), as a hand-written graph's functions are compiled by V8 on their first call.
 */
function runner(source: string): Runner {
  let fn: Runner | undefined;
  return (context) => {
    fn ??= runtimeProgram(source);
    return fn(context);
  };
}

function runtimeProgram(source: string): Runner {
  try {
    const fn = runtimeEnv().parse(`dyn(${source}\n)`);
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

/**
 * The scope's variables that `sources` may read, by a name that appears in them: CEL reads a
 * variable only by its name, so one whose name is nowhere in the text is never read. Converting
 * it anyway converted the whole state at every evaluation of `${{ ['one'] }}` (a copy of each of
 * its lists: in issue 23's soak, a thread's path of thousands of items, at each of its nodes).
 */
const readableIn = (scope: Scope, sources: readonly string[]): [string, ExprType][] =>
  Object.entries(scope.variables).filter(([name]) => sources.some((s) => s.includes(name)));

/** The given variables as cel-js values. */
function celVariables(
  readable: readonly [string, ExprType][],
  variables: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, type] of readable) {
    if (Object.hasOwn(variables, name)) out[name] = toCel(variables[name], type);
  }
  return out;
}

/** How far offsets in the wrapped source (`dyn(` + source) are from those in the source. */
const ROOT_SHIFT = 4;

/** A range in the wrapped source of a part at `offset` (`length` long), as offsets in the text. */
const unwrap = (range: { start: number; end: number }, offset: number, length: number) => {
  const at = (n: number) => offset + Math.min(Math.max(n - ROOT_SHIFT, 0), length);
  return { start: at(range.start), end: at(range.end) };
};

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
      : unwrap(err.range, offset, length);
  return new ExprEvalError(message, source, range, { cause: e });
}

/** The error for an evaluation that ran out of budget at `exceeded`, in a part at `offset`. */
function limitError(
  exceeded: BudgetExceeded,
  source: string,
  offset: number,
  length: number,
): ExprLimitError {
  return new ExprLimitError(
    `its evaluation cost more than the budget of ${exceeded.limit.toLocaleString("en-US")} (\`limits.expression_cost\`)`,
    source,
    {
      ...unwrap(exceeded, offset, length),
      hint: `make it cheaper (fewer nested \`map\`, \`filter\` or \`exists\` over long lists, shorter strings built), or raise \`limits.expression_cost\` in the spec (default ${DEFAULT_EXPRESSION_COST.toLocaleString("en-US")})`,
    },
  );
}

export function compileProgram(
  source: string,
  type: ExprType,
  scope: Scope,
  options: ProgramOptions = {},
): CompiledExpression {
  const run = runner(source);
  const maxCost = options.maxCost ?? DEFAULT_EXPRESSION_COST;
  const readable = readableIn(scope, [source]);
  return {
    source,
    type,
    evaluate(variables) {
      let result: ReturnType<typeof withBudget<unknown>>;
      try {
        const vars = celVariables(readable, variables);
        result = withBudget(maxCost, () => run(vars));
        if (!result.exceeded) return fromCel(result.value);
      } catch (e) {
        throw evalError(e, source, 0, source.length);
      }
      throw limitError(result.exceeded, source, 0, source.length);
    },
  };
}

export function compileTemplateProgram(
  template: ParsedTemplate,
  type: ExprType,
  scope: Scope,
  options: ProgramOptions = {},
): CompiledTemplate {
  const parts = template.parts.map((p) =>
    p.kind === "expr" ? { part: p, run: runner(p.source) } : p,
  );
  const text = template.text;
  const maxCost = options.maxCost ?? DEFAULT_EXPRESSION_COST;
  const readable = readableIn(
    scope,
    template.parts.flatMap((p) => (p.kind === "expr" ? [p.source] : [])),
  );
  const runPart = (p: { part: ExprPart; run: Runner }, vars: Record<string, unknown>) => {
    try {
      return fromCel(p.run(vars));
    } catch (e) {
      throw evalError(e, text, p.part.start, p.part.source.length);
    }
  };
  const convert = (variables: Readonly<Record<string, unknown>>) => {
    try {
      return celVariables(readable, variables);
    } catch (e) {
      throw evalError(e, text, 0, text.length);
    }
  };
  /** The template's value; `at` records the part running, to place an exceeded budget. */
  const evaluateParts = (vars: Record<string, unknown>, at: (ExprPart | undefined)[]): unknown => {
    if (template.whole) {
      const whole = parts[0] as { part: ExprPart; run: Runner };
      at[0] = whole.part;
      return runPart(whole, vars);
    }
    let out = "";
    for (const p of parts) {
      if ("run" in p) {
        at[0] = p.part;
        const value = runPart(p, vars);
        try {
          out += renderText(value);
        } catch (e) {
          throw evalError(e, text, p.part.start, p.part.source.length);
        }
      } else out += p.text;
    }
    return out;
  };
  return {
    text,
    type,
    evaluate(variables) {
      if (!template.parts.some((p) => p.kind === "expr")) {
        return template.parts.map((p) => (p.kind === "text" ? p.text : "")).join("");
      }
      const vars = convert(variables);
      // One budget for the whole template: its parts are one evaluation.
      const at: (ExprPart | undefined)[] = [];
      const result = withBudget(maxCost, () => evaluateParts(vars, at));
      if (result.exceeded) {
        const part = at[0];
        throw limitError(result.exceeded, text, part?.start ?? 0, part?.source.length ?? 0);
      }
      return result.value;
    },
  };
}
