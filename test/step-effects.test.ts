/**
 * The super-step analysis' product of choices (src/check/graph/step-effects.ts) never changes the
 * effects it is given: they are cached per node and edge and reused for every later step state, so
 * a product that merged into one of them would make every later step of that node pull nodes it
 * does not (wrong `parallel-write` pairs, wrong reachability).
 */
import { describe, expect, it } from "vitest";
import {
  BudgetExceeded,
  type Effects,
  edgeOptions,
  emptyEffects,
  mergeEffects,
  multiAlternatives,
  product,
} from "../src/check/graph/step-effects.js";
import type { Trigger } from "../src/check/graph/triggers.js";
import type { GraphEdge } from "../src/spec/control-flow.js";

const pulling = (node: string, from: string): Effects => {
  const e = emptyEffects();
  e.pull.set(node, { kind: "error", from } satisfies Trigger);
  return e;
};

describe("product of a step's choices", () => {
  it("leaves each option as it was when choices collapse to one and a single choice follows", () => {
    // Two options with the same effects (a node's `to: b` and its `on_error: { goto: b }`), then
    // another task with one option: one combination, merged with the second task's.
    const viaEdge = pulling("b", "a");
    const viaError = pulling("b", "a");
    const other = pulling("c", "x");
    const [only, ...rest] = product([[viaEdge, viaError], [other]], { work: 100 });
    expect(rest).toEqual([]);
    expect([...only!.pull.keys()].sort()).toEqual(["b", "c"]);
    expect([...viaEdge.pull.keys()]).toEqual(["b"]);
    expect([...viaError.pull.keys()]).toEqual(["b"]);
    expect([...other.pull.keys()]).toEqual(["c"]);
  });

  it("leaves a single first option as it was too", () => {
    const first = pulling("b", "a");
    const second = pulling("c", "x");
    product([[first], [second]], { work: 100 });
    expect([...first.pull.keys()]).toEqual(["b"]);
  });
});

/** An edge of `kind` from `a` to `targets` (edges[index]). */
const edge = (kind: GraphEdge["kind"], targets: string[], index = 0): GraphEdge => ({
  index,
  kind,
  sources: ["a"],
  targets: targets.map((name) => ({ name, path: [] })),
  ...(kind === "map" ? { over: "state.items" } : {}),
});
const via = (e: GraphEdge): Trigger => ({ kind: "edge", from: "a", edge: e });

/** An option as `pulled|pushed` (a pushed `n*` runs several times), for comparing. */
const shown = (e: Effects): string =>
  `${[...e.pull.keys()].join(",")}|${[...e.push].map(([n, t]) => (t.many ? `${n}*` : n)).join(",")}`;

describe("the ways one edge fires", () => {
  it("a static edge pulls each target once, END aside", () => {
    const e = edge("static", ["b", "c", "b", "END"]);
    const options = edgeOptions(e, via(e));
    expect(options.map(shown)).toEqual(["b,c|"]);
    expect(options[0]!.pull.get("b")).toEqual(via(e));
  });

  it("a route picks one of its distinct targets (END: nothing runs)", () => {
    const e = edge("route", ["b", "c", "b", "END"]);
    expect(edgeOptions(e, via(e)).map(shown)).toEqual(["b|", "c|", "|"]);
  });

  it("a router picks any non-empty subset; past ten choices the caller falls back", () => {
    const e = edge("router", ["b", "c", "END"]);
    expect(edgeOptions(e, via(e)).map(shown)).toEqual([
      "b|",
      "c|",
      "b,c|",
      "|",
      "b|",
      "c|",
      "b,c|",
    ]);
    const names = Array.from({ length: 10 }, (_, i) => `n${i}`);
    expect(edgeOptions(edge("router", names), via(edge("router", names)))).toHaveLength(1023);
    const wide = edge("router", [...names, "n10"]);
    expect(() => edgeOptions(wide, via(wide))).toThrow(BudgetExceeded);
  });

  it("a map sends nothing, one item or several; to END only, nothing", () => {
    const e = edge("map", ["b"]);
    const options = edgeOptions(e, via(e));
    expect(options.map(shown)).toEqual(["|", "|b", "|b*"]);
    expect(options[2]!.push.get("b")!.triggers).toEqual([via(e)]);
    expect(edgeOptions(edge("map", ["END"]), via(e)).map(shown)).toEqual(["|"]);
  });
});

describe("combining effects", () => {
  const pushing = (node: string, e: GraphEdge, many = false): Effects => {
    const out = emptyEffects();
    out.push.set(node, { many, triggers: [via(e)] });
    return out;
  };
  const marking = (join: number, ...sources: string[]): Effects => {
    const out = emptyEffects();
    out.marks.set(join, new Set(sources));
    return out;
  };

  it("two sends to one node make it run several times, with the first two triggers", () => {
    const [e1, e2, e3] = [edge("map", ["b"], 1), edge("map", ["b"], 2), edge("map", ["b"], 3)];
    const merged = mergeEffects(mergeEffects(pushing("b", e1), pushing("b", e2)), pushing("b", e3));
    expect(merged.push.get("b")).toEqual({ many: true, triggers: [via(e1), via(e2)] });
  });

  it("join marks add up, and marks alone are effects", () => {
    const merged = mergeEffects(marking(4, "p"), marking(4, "q"));
    expect([...merged.marks.get(4)!].sort()).toEqual(["p", "q"]);
    expect(mergeEffects(pulling("b", "a"), marking(4, "q")).marks.get(4)).toEqual(new Set(["q"]));
    expect(mergeEffects(marking(4, "q"), pulling("b", "a")).marks.get(4)).toEqual(new Set(["q"]));
  });

  it("the product keeps each distinct combination once, marks and many-ness told apart", () => {
    const e = edge("map", ["b"]);
    const combos = product(
      [
        [pushing("b", e), pushing("b", e, true), marking(4, "p")],
        [emptyEffects(), pushing("b", e), marking(4, "p"), marking(5, "p")],
      ],
      { work: 100 },
    );
    expect(combos.map((c) => `${shown(c)}|${[...c.marks.keys()].join(",")}`)).toEqual([
      "|b|",
      "|b*|",
      "|b|4",
      "|b|5",
      "|b*|4",
      "|b*|5",
      "||4",
      "||4,5",
    ]);
    expect(product([], { work: 1 }).map(shown)).toEqual(["|"]);
  });

  it("the same effects in another order are one combination; different ones never are", () => {
    const e = edge("map", ["b"]);
    const both = (x: Effects, y: Effects) =>
      product(
        [
          [x, y],
          [y, x],
        ],
        { work: 100 },
      ).length;
    expect(both(pulling("b", "a"), pulling("c", "a"))).toBe(3);
    expect(both(pushing("b", e), pushing("c", e))).toBe(3);
    expect(both(marking(4, "p"), marking(5, "p"))).toBe(3);
    expect(both(marking(4, "p"), marking(4, "q"))).toBe(3);
    // Names that run together when joined: {a, bc} is not {ab, c}, nor 4:p+q 5:r {4:p, 5:q+r}.
    const named = (...ns: string[]) => {
      const out = emptyEffects();
      for (const n of ns) out.pull.set(n, { kind: "deferred" });
      return out;
    };
    expect(product([[named("a", "bc"), named("ab", "c")]], { work: 100 })).toHaveLength(2);
    expect(product([[pushing("a", e), pushing("a", e, true)]], { work: 100 })).toHaveLength(2);
    const marks = (m: [number, string[]][]) => {
      const out = emptyEffects();
      for (const [k, v] of m) out.marks.set(k, new Set(v));
      return out;
    };
    expect(
      product(
        [
          [
            marks([
              [4, ["p", "q"]],
              [5, ["r"]],
            ]),
            marks([
              [4, ["p"]],
              [5, ["q", "r"]],
            ]),
          ],
        ],
        {
          work: 100,
        },
      ),
    ).toHaveLength(2);
    expect(product([[named("a"), pushing("a", e)]], { work: 100 })).toHaveLength(2);
    expect(product([[named("a"), marks([[1, ["a"]]])]], { work: 100 })).toHaveLength(2);
  });

  it("sends and join marks whose written forms would run together stay apart", () => {
    const e = edge("map", ["a"]);
    const marks = (m: [number, string[]][]) => {
      const out = emptyEffects();
      for (const [k, v] of m) out.marks.set(k, new Set(v));
      return out;
    };
    const distinct = (...options: Effects[]) => product([options], { work: 100 }).length;
    // Several sends to `a` are not no sends; marks `p` and `q` are not one mark `pq`, nor
    // {1: a, 2: b} one mark `a2:b`.
    expect(distinct(emptyEffects(), pushing("a", e, true))).toBe(2);
    expect(distinct(mergeEffects(pushing("a", e), pushing("b", e)), pushing("ab", e))).toBe(2);
    expect(distinct(marks([[4, ["p", "q"]]]), marks([[4, ["pq"]]]))).toBe(2);
    expect(
      distinct(
        marks([
          [1, ["a"]],
          [2, ["b"]],
        ]),
        marks([[1, ["a2:b"]]]),
      ),
    ).toBe(2);
  });

  it("a node pulled twice keeps its first trigger", () => {
    expect(mergeEffects(pulling("b", "a"), pulling("b", "c")).pull.get("b")).toEqual({
      kind: "error",
      from: "a",
    });
  });

  it("merging with nothing gives the other itself, not a copy", () => {
    const x = pulling("b", "a");
    expect(mergeEffects(x, emptyEffects())).toBe(x);
    expect(mergeEffects(emptyEffects(), x)).toBe(x);
    const m = marking(4, "p");
    expect(mergeEffects(m, emptyEffects())).toBe(m);
    const p = pushing("b", edge("map", ["b"]));
    expect(mergeEffects(emptyEffects(), p)).toBe(p);
  });

  it("the product gives up past its budget of combinations", () => {
    const two = [pulling("b", "a"), pulling("c", "a")];
    expect(product([two, two], { work: 6 })).toHaveLength(3);
    expect(() => product([two, two], { work: 5 })).toThrow(BudgetExceeded);
    expect(() => product([[pulling("b", "a")]], { work: 0 })).toThrow(BudgetExceeded);
    expect(product([[pulling("b", "a")]], { work: 1 })).toHaveLength(1);
  });

  it("several runs of one node: each run picks any alternative", () => {
    const e = edge("route", ["b", "c"]);
    const alts = edgeOptions(e, via(e));
    expect(multiAlternatives(alts, { work: 100 }).map(shown)).toEqual(["b|", "c|", "b,c|"]);
    expect(() => multiAlternatives(alts, { work: 3 })).toThrow(BudgetExceeded);
    expect(multiAlternatives(alts, { work: 4 })).toHaveLength(3);
  });
});
