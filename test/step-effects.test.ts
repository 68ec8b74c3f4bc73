/**
 * The super-step analysis' product of choices (src/check/graph/step-effects.ts) never changes the
 * effects it is given: they are cached per node and edge and reused for every later step state, so
 * a product that merged into one of them would make every later step of that node pull nodes it
 * does not (wrong `parallel-write` pairs, wrong reachability).
 */
import { describe, expect, it } from "vitest";
import { type Effects, emptyEffects, product } from "../src/check/graph/step-effects.js";
import type { Trigger } from "../src/check/graph/triggers.js";

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
