/**
 * A cost budget per evaluation. cel-js bounds what it parses (nodes, depth, literal sizes) but not
 * what a checked expression does at run time: three nested `map`s over a 1,000-item list are a
 * billion steps (4.3 GB, then the process aborted), `s + s` under `cel.bind` doubles a string
 * per level. Evaluation is synchronous, so nothing else — a deadline, Ctrl-C — runs until it ends.
 *
 * cel-js evaluates every node below the root through its evaluator's `run(ast, ctx)` (operands,
 * call arguments, each comprehension step). The runtime environment's evaluator gets its own
 * `run` that charges the running evaluation's meter by the work each operation does, in units of
 * 1 per node plus 1 per `SIZE_PER_UNIT` characters, items or bytes that the operation walks:
 * - comparisons (`==`, `!=`, `<`, …) and `x in list`: the deep sizes of both operands, which
 *   they may walk to the end (`x in list` compares x with every item);
 * - functions (`contains`, `startsWith`, `indexOf`, `size`, `split`, …): the sizes of the
 *   receiver and arguments, and of the value built (`+` too);
 * - `matches()`: text length × pattern length (RE2's automaton, per character, per state).
 * Operands are charged as they arrive, so an operation's charge is on the meter before the
 * operation runs; an answer that is only a bool or an int still paid for the scan behind it.
 * Over the budget, every further `run` throws at once, so even a quantifier that swallows errors
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
  /** cel-js's own: a macro (`exists`, `has`, `cel.bind`) or alternate evaluates another node. */
  readonly meta?: { macro?: unknown; alternate?: unknown };
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

/** A value's shallow size: characters, items, entries or bytes (what a function walks). */
function sizeOf(value: unknown): number {
  if (typeof value === "string" || Array.isArray(value) || value instanceof Uint8Array)
    return value.length;
  if (value instanceof Map) return value.size;
  if (isPlainMap(value)) return cachedSize(shallowSizes, value, () => Object.keys(value).length);
  return 0;
}

/**
 * A value's deep size: characters, bytes, and 1 per scalar, all the way down — what an equality,
 * an ordering or a membership test may walk. A list or map counts a whole unit (`SIZE_PER_UNIT`):
 * comparing two of them dispatches on their types, which costs about what a step does. Computing
 * it walks the value once; containers are remembered (values inside one evaluation are never
 * changed), so reading the same list again costs nothing more here, though it is charged again.
 */
function deepSizeOf(value: unknown): number {
  if (typeof value === "string" || value instanceof Uint8Array) return value.length + 1;
  if (Array.isArray(value))
    return cachedSize(deepSizes, value, () => {
      let n = SIZE_PER_UNIT;
      for (const v of value) n += deepSizeOf(v);
      return n;
    });
  if (value instanceof Map)
    return cachedSize(deepSizes, value, () => {
      let n = SIZE_PER_UNIT;
      for (const [k, v] of value) n += deepSizeOf(k) + deepSizeOf(v);
      return n;
    });
  if (isPlainMap(value))
    return cachedSize(deepSizes, value, () => {
      let n = SIZE_PER_UNIT;
      for (const k of Object.keys(value)) n += k.length + deepSizeOf(value[k]);
      return n;
    });
  return 1;
}

const isPlainMap = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== "object" || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};
const shallowSizes = new WeakMap<object, number>();
const deepSizes = new WeakMap<object, number>();
function cachedSize(cache: WeakMap<object, number>, value: object, size: () => number): number {
  const known = cache.get(value);
  if (known !== undefined) return known;
  const n = size();
  cache.set(value, n);
  return n;
}

/** Operators whose work grows with their operands: equality and ordering walk both, deeply. */
const COMPARISONS = new Set(["==", "!=", "<", "<=", ">", ">="]);

/**
 * The work, in characters, items or bytes, an operation may do with its `index`-th operand, or
 * undefined for operations that take constant work per operand. Charged as each operand arrives,
 * so the whole charge is on the meter before the operation itself runs.
 */
function operandWork(parent: Node, index: number, operand: unknown): number {
  const op = parent.op;
  if (COMPARISONS.has(op)) return deepSizeOf(operand);
  // `x in list` compares x with every item; `k in map` looks one key up.
  if (op === "in") return index === 0 || Array.isArray(operand) ? deepSizeOf(operand) : 1;
  // Functions walk their receiver and arguments once (contains, startsWith, size, split, join…).
  return sizeOf(operand);
}

/** Does `ast` do work that grows with its operands (and is not a macro, which runs its own nodes)? */
const isSized = (ast: Node): boolean => {
  const op = ast.op;
  if (op !== "call" && op !== "rcall" && op !== "in" && !COMPARISONS.has(op)) return false;
  const meta = ast.meta;
  return !meta?.macro && !meta?.alternate;
};

/** The operands of the sized operation whose operands are being evaluated now, and that operation. */
interface Operands {
  readonly parent: Node;
  count: number;
}
let operands: Operands | undefined;

/** `receiver.matches(pattern)` on the linear-time engine; other shapes go to cel-js. */
function matches(ev: Evaluator, ast: Node, ctx: unknown): unknown {
  const [, receiver, args] = ast.args as [string, Node, Node[]];
  if (args.length !== 1) return ast.evaluate(ev, ast, ctx);
  const text = ev.run(receiver, ctx);
  const pattern = ev.run(args[0]!, ctx);
  if (typeof text !== "string" || typeof pattern !== "string") return ast.evaluate(ev, ast, ctx);
  // RE2's automaton steps through every state of the pattern for each character of the text.
  const m = meter;
  if (m !== undefined) charge(m, ast, (text.length * (pattern.length + 1)) / SIZE_PER_UNIT);
  return linearRegex(pattern).test(text);
}

const evaluateNode = (ev: Evaluator, ast: Node, ctx: unknown): unknown =>
  ast.op === "rcall" && (ast.args as unknown[])[0] === "matches"
    ? matches(ev, ast, ctx)
    : ast.evaluate(ev, ast, ctx);

function charge(m: Meter, ast: Node, units: number): void {
  m.spent += units;
  if (m.spent > m.limit) throw exceed(m, ast);
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
    if (m === undefined) return evaluateNode(this, ast, ctx);
    if (++m.spent > m.limit) throw exceed(m, ast);
    const outer = operands;
    operands = isSized(ast) ? { parent: ast, count: 0 } : undefined;
    let result: unknown;
    try {
      result = evaluateNode(this, ast, ctx);
    } finally {
      operands = outer;
    }
    // An operand of a sized operation: charged before that operation runs on it.
    if (outer !== undefined)
      charge(m, outer.parent, operandWork(outer.parent, outer.count++, result) / SIZE_PER_UNIT);
    // What an operation builds (a string, a list): charged by its size.
    const op = ast.op;
    if (op === "+" || op === "rcall" || op === "call")
      charge(m, ast, sizeOf(result) / SIZE_PER_UNIT);
    return result;
  };
  const check = withBudget(2, () => {
    try {
      env.evaluate("[1, 2, 3].exists(x, x == 4)");
    } catch {}
  });
  if (!check.exceeded)
    throw new Error("cel-js did not meter its evaluation: the budget cannot work");
  // A scan answering a bool is charged by its size: 1,000 characters are 100 units, not 4 (the
  // root is wrapped in `dyn`, as programs are, so that it runs through the meter).
  const scan = withBudget(50, () => env.evaluate(`dyn('${"a".repeat(1000)}'.contains('b'))`));
  if (!scan.exceeded)
    throw new Error("cel-js did not meter what its operations scan: the budget cannot work");
  // Macros are told apart by cel-js's `meta` (`alternate`: the comprehension it runs instead);
  // without it, a `map` would be charged for its own growing list at every step.
  const macro = (env.parse("[1].exists(x, true)") as unknown as { ast?: Node }).ast?.meta;
  if (!(macro?.alternate || macro?.macro))
    throw new Error("cel-js no longer marks macros: the budget cannot tell them apart");
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
  const outerOperands = operands;
  const m: Meter = { limit, spent: 0, exceeded: undefined };
  meter = m;
  operands = undefined;
  try {
    const value = evaluate();
    return m.exceeded ? { exceeded: m.exceeded } : { value };
  } catch (e) {
    if (m.exceeded) return { exceeded: m.exceeded };
    throw e;
  } finally {
    meter = outer;
    operands = outerOperands;
  }
}
