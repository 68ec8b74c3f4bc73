/**
 * The expression cost budget's accounting, unit by unit (src/expr/cost-budget.ts): what each
 * operation is charged, found as the smallest budget an evaluation fits in. An operation charged
 * too little is exactly where an attacker gets past the bound, so the figures are pinned down
 * here: 1 unit per node evaluated, plus 1 per SIZE_PER_UNIT (10) characters, items or bytes an
 * operation may walk or build. Issue 31 (mutation testing) asked for each of these.
 */
import { Environment } from "@marcbachmann/cel-js";
import { describe, expect, it, vi } from "vitest";
import { BudgetExceeded, meterEvaluations, withBudget } from "../../src/expr/cost-budget.js";
import { ExprEnvironment, ExprLimitError } from "../../src/expr/index.js";

const env = new ExprEnvironment({
  state: {
    text: { type: "string" },
    pattern: { type: "string" },
    items: { type: "array", items: { type: "integer" } },
    words: { type: "array", items: { type: "string" } },
    doc: { type: "object", additionalProperties: { type: "string" } },
    extra: { type: "any" },
  },
});
const scope = env.scope("a test");
const evaluate = (source: string, state: Record<string, unknown>, maxCost: number) =>
  env.compile(source, scope, { maxCost }).evaluate({ state });

/** The smallest budget `source` evaluates within (a binary search over budgets). */
function cost(source: string, state: Record<string, unknown> = {}): number {
  let lo = 0;
  let hi = 10_000_000;
  while (lo + 1 < hi) {
    const mid = Math.floor((lo + hi) / 2);
    try {
      evaluate(source, state, mid);
      hi = mid;
    } catch (e) {
      if (!(e instanceof ExprLimitError)) throw e;
      lo = mid;
    }
  }
  return hi;
}
/** What the budget error says, and where in the source it points. */
function overBudget(source: string, state: Record<string, unknown>, maxCost: number) {
  try {
    evaluate(source, state, maxCost);
  } catch (e) {
    expect(e).toBeInstanceOf(ExprLimitError);
    const err = e as ExprLimitError;
    return { message: err.message, at: source.slice(err.start, err.end) };
  }
  throw new Error(`${source} fit in a budget of ${maxCost}`);
}

const chars = (n: number) => "a".repeat(n);
/** 100 entries `k0`…`k99`, each the one-character string `v`. */
const doc100 = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, "v"]));
// Its deep size: 10 for the map, each key's characters (10 of 2, 90 of 3), each value's 1 + 1.
const DOC100_DEEP = 10 + (10 * 2 + 90 * 3) + 100 * 2;

describe("each node evaluated costs one unit", () => {
  it("a literal costs 1, an addition of two costs 3, of three 5", () => {
    expect(cost("1")).toBe(1);
    expect(cost("1 + 2")).toBe(3);
    expect(cost("1 + 2 + 3")).toBe(5);
  });

  it("reading a long string costs nothing more than reading a short one", () => {
    expect(cost("state.text", { text: chars(1000) })).toBe(2);
    expect(cost("state.text", { text: "" })).toBe(2);
  });
});

describe("comparisons walk both operands to the end", () => {
  for (const op of ["==", "!=", "<", "<=", ">", ">="]) {
    it(`${op}: 1,000 characters more cost 100 units more`, () => {
      // 4 nodes, then each string's length + 1: (0 + 1 + 1 + 1) / 10 rounds up to one unit.
      expect(cost(`state.text ${op} 'x'`, { text: "" })).toBe(5);
      expect(cost(`state.text ${op} 'x'`, { text: chars(1000) })).toBe(105);
    });
  }

  it("a list counts a unit of its own and one per scalar in it", () => {
    expect(cost("state.items == state.items", { items: [] })).toBe(5 + 2);
    expect(cost("state.items == state.items", { items: Array(100).fill(1) })).toBe(5 + 22);
  });

  it("a map counts a unit, its keys' characters and its values, deeply", () => {
    expect(cost("state.doc == state.doc", { doc: {} })).toBe(5 + 2);
    expect(cost("state.doc == state.doc", { doc: doc100 })).toBe(5 + (2 * DOC100_DEEP) / 10);
    // { a: [1, 2], bb: "xyz" }: 10 + (1 + 10 + 1 + 1) + (2 + 3 + 1) = 29 per side.
    expect(cost("state.extra == state.extra", { extra: { a: [1, 2], bb: "xyz" } })).toBe(
      5 + Math.ceil((2 * 29) / 10),
    );
  });

  it("a map built by the expression counts as deeply as one read from the state", () => {
    const literal = `{${Array.from({ length: 50 }, (_, i) => `'k${i}': 'v'`).join(", ")}}`;
    const small = cost(`{'k': 'v'} == {'k': 'v'}`);
    // 49 entries more on each side, each 2 or 3 characters of key and 2 of value.
    expect(cost(`${literal} == ${literal}`) - small).toBeGreaterThanOrEqual(2 * 98 + 40);
  });

  it("bytes count one unit per ten, as characters do", () => {
    const b = `b'${chars(1000)}'`;
    expect(cost(`${b} == ${b}`) - cost("b'a' == b'a'")).toBe(200);
  });

  it("values that are neither text, lists nor maps count 1 each: null, timestamps", () => {
    expect(cost("null == null")).toBe(4);
    // 5 nodes; each side's 20 characters read by timestamp() (2 units each); each timestamp 1.
    const t = "timestamp('2020-01-01T00:00:00Z')";
    expect(cost(`${t} == ${t}`)).toBe(Math.ceil(5 + 4 + 0.2));
  });
});

describe("membership", () => {
  it("`x in list` compares x with every item: 100 items of 9 characters cost 100 units", () => {
    expect(cost("'a' in state.words", { words: [] })).toBe(6);
    expect(cost("'a' in state.words", { words: Array(100).fill(chars(9)) })).toBe(106);
  });

  it("the left operand of `in` is walked too", () => {
    const within = (text: string) => cost("state.text in ['b']", { text });
    expect(within(chars(1000)) - within("")).toBe(100);
  });

  it("`k in map` looks one key up, however large the map", () => {
    expect(cost("'k' in state.doc", { doc: {} })).toBe(5);
    expect(cost("'k' in state.doc", { doc: doc100 })).toBe(5);
  });
});

describe("functions walk their receiver and arguments, and pay for what they build", () => {
  it("contains, size: 1,000 characters cost 100 units", () => {
    expect(cost("state.text.contains('b')", { text: "" })).toBe(5);
    expect(cost("state.text.contains('b')", { text: chars(1000) })).toBe(105);
    expect(cost("'b'.contains(state.text)", { text: chars(1000) })).toBe(105);
    expect(
      cost("size(state.text)", { text: chars(1000) }) - cost("size(state.text)", { text: "" }),
    ).toBe(100);
  });

  it("size of a map walks its entries once: 100 entries cost 10 units", () => {
    expect(cost("size(state.doc)", { doc: doc100 }) - cost("size(state.doc)", { doc: {} })).toBe(
      10,
    );
    // The second read of the same map is charged again.
    expect(cost("size(state.doc) + size(state.doc)", { doc: doc100 })).toBe(
      2 * cost("size(state.doc)", { doc: doc100 }) + 1,
    );
  });

  it("`+` pays for the string it builds, not for the operands it reads", () => {
    expect(cost("state.text + state.text", { text: chars(1000) })).toBe(5 + 200);
    expect(cost("state.words + state.words", { words: Array(50).fill("x") })).toBe(5 + 10);
  });

  it("a conversion pays for the text it reads and the value it builds", () => {
    // 3 nodes; the 1,000 characters read (100 units); the 1,000 bytes built (100 units).
    expect(cost("bytes(state.text)", { text: chars(1000) })).toBe(203);
    expect(cost("string(state.text)", { text: chars(1000) })).toBe(203);
  });

  it("a function's result is charged by its size: split builds a list", () => {
    const text = Array(100).fill("a").join(",");
    // The receiver's 199 characters, the separator's 1, then the 100 items built.
    expect(cost("state.text.split(',')", { text })).toBe(Math.ceil(4 + (199 + 1 + 100) / 10));
  });

  it("macros are not charged for the list they build at each step", () => {
    // 1 for the macro, 2 for the read, and 2 per item (the step and the item's variable).
    expect(cost("state.items.map(x, x)", { items: Array(100).fill(1) })).toBe(214);
    expect(cost("state.items.all(x, x == 1)", { items: Array(100).fill(1) })).toBeLessThan(700);
  });
});

describe("matches() runs on the linear engine, charged text × pattern", () => {
  it("1,000 characters against a pattern of 1 cost 200 units, of 4 cost 500", () => {
    // Nodes 5; the receiver's 1,000 characters 100 and the pattern's; then 1,000 × (n + 1) / 10.
    expect(cost("state.text.matches(state.pattern)", { text: chars(1000), pattern: "a" })).toBe(
      306,
    );
    expect(cost("state.text.matches(state.pattern)", { text: chars(1000), pattern: "aaaa" })).toBe(
      606,
    );
  });

  it("a catastrophic pattern answers at once", () => {
    const text = `${chars(40)}b`;
    expect(evaluate("state.text.matches('^(a+)+$')", { text }, 1_000_000)).toBe(false);
    expect(evaluate("state.text.matches('^(a|a)*$')", { text: chars(40) }, 1_000_000)).toBe(true);
  });

  it("on a value that is not a string, matches is cel-js's own error, not a crash", () => {
    expect(() => evaluate("state.extra.matches('a')", { extra: 5 }, 1_000_000)).toThrow(
      "found no matching overload for `int.matches(string)`",
    );
    expect(() => evaluate("'a'.matches(state.extra)", { extra: 5 }, 1_000_000)).toThrow(
      "found no matching overload for `string.matches(int)`",
    );
  });
});

describe("over the budget", () => {
  it("one unit over fails, at exactly the budget it fits", () => {
    expect(evaluate("1 + 2", {}, 3)).toBe(3);
    expect(() => evaluate("1 + 2", {}, 2)).toThrow(ExprLimitError);
    expect(evaluate("state.text.contains('b')", { text: chars(1000) }, 105)).toBe(false);
    expect(() => evaluate("state.text.contains('b')", { text: chars(1000) }, 104)).toThrow(
      ExprLimitError,
    );
  });

  it("names the budget and points at the operation that ran over", () => {
    const r = overBudget("true && state.text.contains('b')", { text: chars(1000) }, 50);
    expect(r.message).toMatch(/budget of 50 /);
    expect(r.at).toBe("state.text.contains('b')");
    // Out of units on a node: that node, not the operation around it.
    expect(overBudget("[1, 2, 3, 4, 5, 6].size()", {}, 4).at).toMatch(/^\d$/);
  });

  it("a quantifier that swallows errors still ends with the budget's error", () => {
    const items = Array.from({ length: 10_000 }, (_, i) => i);
    const r = overBudget(
      "state.items.exists(x, state.items.exists(y, x == y + 1))",
      { items },
      10_000,
    );
    expect(r.message).toMatch(/budget of 10,000/);
  });
});

describe("withBudget", () => {
  it("the first evaluation, which sets the meter up inside its own budget, fits that budget", async () => {
    vi.resetModules();
    const fresh = await import("../../src/expr/index.js");
    const calc = new fresh.ExprEnvironment({});
    expect(calc.compile("1 + 2", calc.scope("a test"), { maxCost: 3 }).evaluate({})).toBe(3);
    expect(() => calc.compile("1 + 2", calc.scope("a test"), { maxCost: 2 }).evaluate({})).toThrow(
      fresh.ExprLimitError,
    );
  });

  it("an error of the evaluation's own goes through", () => {
    expect(() =>
      withBudget(10, () => {
        throw new TypeError("its own");
      }),
    ).toThrow("its own");
  });

  it("the exceeded budget says its limit and where", () => {
    const e = new BudgetExceeded(12, 3, 7);
    expect(e.name).toBe("BudgetExceeded");
    expect(e.message).toBe("the expression's evaluation cost more than its budget of 12");
    expect([e.limit, e.start, e.end]).toEqual([12, 3, 7]);
  });
});

describe("an environment of one's own, metered", () => {
  // graphspec's runtime environment makes plain objects of maps; functions registered on another
  // environment may return Maps or objects without a prototype, and are charged the same way.
  const own = meterEvaluations(new Environment({ homogeneousAggregateLiterals: false }));
  const entries = Array.from({ length: 100 }, (_, i) => [`k${i}`, "v"] as const);
  own.registerFunction("bigMap(): map<string, string>", () => new Map(entries));
  own.registerFunction("bareMap(): map<string, string>", () =>
    Object.assign(Object.create(null), Object.fromEntries(entries)),
  );
  const ownCost = (source: string) => {
    let lo = 0;
    let hi = 100_000;
    while (lo + 1 < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (withBudget(mid, () => own.evaluate(source)).exceeded) lo = mid;
      else hi = mid;
    }
    return hi;
  };

  it("a Map is walked deeply by ==, and by its size where a function walks it", () => {
    // 3 nodes; each call's Map of 100 entries built (10 units each); each side's deep size:
    // 10 + its keys' characters + 1 each (10 of 2, 90 of 3) + 2 per value: 600, 60 units each.
    expect(ownCost("dyn(bigMap() == bigMap())")).toBe(3 + 20 + 120);
    expect(ownCost("dyn(size(bigMap()))")).toBe(ownCost("dyn(size(bareMap()))"));
    expect(ownCost("dyn(size(bigMap()))")).toBe(22);
    // `k in map` looks one key up.
    expect(ownCost("dyn('k1' in bigMap())")).toBe(14);
  });

  it("an object without a prototype is a map too", () => {
    // Its keys count their characters only: 10 + (10 × 2 + 90 × 3) + 200 = 500 a side.
    expect(ownCost("dyn(bareMap() == bareMap())")).toBe(3 + 20 + 100);
  });

  it("outside withBudget, evaluations run unmetered", () => {
    // In dyn(…), as programs are, so that matches() runs through the metered hook.
    expect(own.evaluate(`dyn('${chars(10_000)}'.matches('b'))`)).toBe(false);
    expect(own.evaluate("[1, 2].exists(x, x == 2)")).toBe(true);
  });
});

describe("meterEvaluations refuses a cel-js it cannot meter", () => {
  /** An environment whose evaluator is `evaluator` (handed to registered functions as `this`). */
  const fakeEnv = (evaluator: unknown, evaluate: (src: string) => unknown, ast?: unknown) => {
    let probe: (() => unknown) | undefined;
    return {
      registerFunction(_sig: string, fn: () => unknown) {
        probe = fn;
      },
      evaluate(src: string) {
        if (src === "graphspec_evaluator_probe()") return probe?.call(evaluator);
        return evaluate(src);
      },
      parse: () => ({ ast }),
    } as never;
  };

  it("no evaluator handed over", () => {
    expect(() => meterEvaluations(fakeEnv(undefined, () => true))).toThrow(
      "cel-js did not hand over its evaluator: the expression budget cannot work",
    );
    expect(() => meterEvaluations(fakeEnv({ run: 1 }, () => true))).toThrow(
      /did not hand over its evaluator/,
    );
  });

  it("an evaluator whose run is never called", () => {
    expect(() => meterEvaluations(fakeEnv({ run() {} }, () => true))).toThrow(
      "cel-js did not meter its evaluation: the budget cannot work",
    );
  });

  it("an evaluator that does not charge what operations scan", () => {
    const node = { op: "id", args: [], start: 0, end: 1, evaluate: () => 1 };
    const ev = { run(_a: unknown, _c: unknown) {} };
    // Runs 3 nodes for the first check (over its budget of 2), 1 for the second.
    const evaluate = (src: string) => {
      const n = src.startsWith("[1, 2, 3]") ? 3 : 1;
      for (let i = 0; i < n; i++) ev.run(node as never, {});
    };
    expect(() => meterEvaluations(fakeEnv(ev, evaluate))).toThrow(
      "cel-js did not meter what its operations scan: the budget cannot work",
    );
  });

  it("macros no longer marked", () => {
    const node = { op: "id", args: [], start: 0, end: 1, evaluate: () => 1 };
    const ev = { run(_a: unknown, _c: unknown) {} };
    const evaluate = (src: string) => {
      for (let i = 0; i < (src.startsWith("[1, 2, 3]") ? 3 : 60); i++) ev.run(node as never, {});
    };
    expect(() => meterEvaluations(fakeEnv(ev, evaluate, { meta: {} }))).toThrow(
      "cel-js no longer marks macros: the budget cannot tell them apart",
    );
    expect(() => meterEvaluations(fakeEnv(ev, evaluate, undefined))).toThrow(
      /no longer marks macros/,
    );
    expect(meterEvaluations(fakeEnv(ev, evaluate, { meta: { macro: {} } }))).toBeDefined();
    expect(meterEvaluations(fakeEnv(ev, evaluate, { meta: { alternate: {} } }))).toBeDefined();
  });
});
