import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { parseSpec } from "../../src/spec/load.js";

const doc = (text: string) => parseSpec(text, { file: "graphs/t.yaml", root: process.cwd() });

describe("smoke", () => {
  it("runs set nodes through reducers", async () => {
    const g = await compile(
      doc(`version: 1
name: t
state:
  log: { type: array, items: { type: string }, reducer: append }
  count: { type: integer, reducer: sum, default: 0 }
  tags: { type: array, items: { type: string }, reducer: union, default: [] }
nodes:
  a: { kind: set, values: { log: started, count: 2, tags: [x, x, y] } }
  b: { kind: set, values: { log: [one, two], count: "\${{ state.count + 1 }}", tags: y } }
edges:
  - { from: START, to: a }
  - { from: a, to: b }
  - { from: b, to: END }
`),
    );
    const out = await g.invoke({});
    expect(out).toEqual({ log: ["started", "one", "two"], count: 5, tags: ["x", "y"] });
  });
});

import { Annotation, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { expectSameRun } from "../support/equivalence.js";

describe("equivalence helper", () => {
  it("records fan-out and join steps", async () => {
    const spec = doc(`version: 1
name: t
state:
  log: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  a: { kind: set, values: { log: a } }
  b: { kind: set, values: { log: b } }
  c: { kind: set, values: { log: c } }
  d: { kind: set, values: { log: d } }
edges:
  - { from: START, to: a }
  - { from: a, to: [b, c] }
  - { from: [b, c], to: d }
  - { from: d, to: END }
`);
    const compiled = await compile(spec, { checkpointer: new MemorySaver() });
    const S = Annotation.Root({
      log: Annotation<string[]>({ reducer: (x, y) => x.concat(y), default: () => [] }),
    });
    const hand = new StateGraph(S)
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("c", () => ({ log: ["c"] }))
      .addNode("d", () => ({ log: ["d"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("a", "c")
      .addEdge(["b", "c"], "d")
      .addEdge("d", END)
      .compile({ checkpointer: new MemorySaver() });
    const r = await expectSameRun(compiled, hand, { input: {} });
    expect(r.steps).toEqual([["a"], ["b", "c"], ["d"]]);
  });
});
