/**
 * A cost budget per evaluation. cel-js bounds what it parses (nodes, depth, literal sizes) but not
 * what a checked expression does at run time: three nested `map`s over a 1,000-item list are a
 * billion steps (4.3 GB, then the process aborted), `s + s` under `cel.bind` doubles a string
 * per level. Evaluation is synchronous, so nothing else — a deadline, Ctrl-C — runs until it ends.
 *
 * cel-js evaluates every node below the root through its evaluator's `run(ast, ctx)` (operands,
 * call arguments, each comprehension step). The runtime environment's evaluator gets its own
 * `run` that charges the running evaluation's meter: 1 per node, plus 1 per
 * `SIZE_PER_UNIT` characters, items or bytes of a string, list or bytes value that an operation
 * builds (`+`, a function, a `map`/`filter`) — reads of values that already exist are free. Over
 * the budget, every further `run` throws at once, so even a quantifier that swallows errors
 * (`exists`) unwinds in a few steps per level; the evaluation then fails with ExprLimitError.
 *
 * The same hook runs `matches()` on the linear-time regex engine (spec/linear-regex.ts): cel-js's
 * own `matches` uses JavaScript's backtracking RegExp, and an overload cannot be replaced.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { linearRegex } from "../spec/linear-regex.js";

/** The default budget of one evaluation (a spec's `limits.expression_cost`). */
export const DEFAULT_EXPRESSION_COST = 1_000_000;
/** Characters, items or bytes of a built value that cost one unit (CEL's own estimate: 0.1 a byte). */
export const SIZE_PER_UNIT = 10;

/** cel-js's AST node, as far as the hook reads it. */
interface Node {
  op: string;
  args: unknown;
  start: number;
  end: number;
  evaluate(ev: Evaluator, ast: Node, ctx: unknown): unknown;
}
interface Evaluator {
  run(ast: Node, ctx: unknown): unknown;
}

/** The budget ran out at [start, end) of the evaluated source. */
export class BudgetExceeded extends Error {
  override readonly name = "BudgetExceeded";
  constructor(
    readonly limit: number,
    readonly start: number,
    readonly end: number,
  ) {
    super(`the expression's evaluation cost more than its budget of ${limit}`);
  }
}

interface Meter {
  readonly limit: number;
  spent: number;
  exceeded: BudgetExceeded | undefined;
}

/** The meter of the evaluation running now (evaluation is synchronous: one at a time). */
let meter: Meter | undefined;

const exceed = (m: Meter, ast: Node): BudgetExceeded =>
  (m.exceeded ??= new BudgetExceeded(m.limit, ast.start, ast.end));

/** The size a built value is charged for. */
const sizeOf = (value: unknown): number =>
  typeof value === "string" || Array.isArray(value) || value instanceof Uint8Array
    ? value.length
    : 0;

/** `receiver.matches(pattern)` on the linear-time engine; other shapes go to cel-js. */
function matches(ev: Evaluator, ast: Node, ctx: unknown): unknown {
  const [, receiver, args] = ast.args as [string, Node, Node[]];
  if (args.length !== 1) return ast.evaluate(ev, ast, ctx);
  const text = ev.run(receiver, ctx);
  const pattern = ev.run(args[0]!, ctx);
  if (typeof text !== "string" || typeof pattern !== "string") return ast.evaluate(ev, ast, ctx);
  return linearRegex(pattern).test(text);
}

/**
 * Installs the metered `run` on `env`'s evaluator (the environment programs run in). cel-js keeps
 * its evaluator private; a function's handler is called with the evaluator as `this`, so a probe
 * function registered here hands it over once. Throws when the hook does not take (a cel-js
 * upgrade changed its evaluator): running without a budget must not happen silently.
 */
export function meterEvaluations(env: Environment): Environment {
  let evaluator: Evaluator | undefined;
  env.registerFunction("graphspec_evaluator_probe(): bool", function (this: Evaluator) {
    evaluator = this;
    return true;
  });
  env.evaluate("graphspec_evaluator_probe()");
  if (!evaluator || typeof evaluator.run !== "function") {
    throw new Error("cel-js did not hand over its evaluator: the expression budget cannot work");
  }
  evaluator.run = function metered(ast: Node, ctx: unknown): unknown {
    const m = meter;
    if (m !== undefined && ++m.spent > m.limit) throw exceed(m, ast);
    const result =
      ast.op === "rcall" && (ast.args as unknown[])[0] === "matches"
        ? matches(this, ast, ctx)
        : ast.evaluate(this, ast, ctx);
    if (m !== undefined && typeof result !== "boolean" && typeof result !== "bigint") {
      const op = ast.op;
      if (op === "+" || op === "rcall" || op === "call") {
        m.spent += Math.floor(sizeOf(result) / SIZE_PER_UNIT);
        if (m.spent > m.limit) throw exceed(m, ast);
      }
    }
    return result;
  };
  const check = withBudget(2, () => {
    try {
      env.evaluate("[1, 2, 3].exists(x, x == 4)");
    } catch {}
  });
  if (!check.exceeded)
    throw new Error("cel-js did not meter its evaluation: the budget cannot work");
  return env;
}

/**
 * Runs `evaluate` with a fresh meter of `limit` units; returns its value, or the BudgetExceeded
 * (whatever cel-js made of the error on its way out) when the budget ran out.
 */
export function withBudget<T>(
  limit: number,
  evaluate: () => T,
): { value: T; exceeded?: undefined } | { exceeded: BudgetExceeded } {
  const outer = meter;
  const m: Meter = { limit, spent: 0, exceeded: undefined };
  meter = m;
  try {
    const value = evaluate();
    return m.exceeded ? { exceeded: m.exceeded } : { value };
  } catch (e) {
    if (m.exceeded) return { exceeded: m.exceeded };
    throw e;
  } finally {
    meter = outer;
  }
}
