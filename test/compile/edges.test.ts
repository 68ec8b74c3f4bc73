/**
 * Every edge form, compiled from a spec and written by hand with LangGraph, run side by side:
 * same final state, same nodes per step.
 */
import { Annotation, END, MemorySaver, Send, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { expectSameRun } from "../support/equivalence.js";
import { rejection, specDoc } from "./helpers.js";

const Log = Annotation.Root({
  log: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  count: Annotation<number>(),
  topics: Annotation<string[]>(),
  topic: Annotation<string>(),
});
const say = (word: string) => () => ({ log: [word] });
const saver = () => ({ checkpointer: new MemorySaver() });

const HEADER = `version: 1
name: t
state:
  log: { type: array, items: { type: string }, reducer: append, default: [] }
  count: { type: integer }
  topics: { type: array, items: { type: string } }
  topic: { type: string }
`;

describe("static edges, fan-out and joins", () => {
  it("a join waits for every source", async () => {
    const compiled = await compile(
      specDoc(`${HEADER}nodes:
  a: { kind: set, values: { log: a } }
  b: { kind: set, values: { log: b } }
  c: { kind: set, values: { log: c } }
  c2: { kind: set, values: { log: c2 } }
  d: { kind: set, values: { log: d } }
edges:
  - { from: START, to: a }
  - { from: a, to: [b, c] }
  - { from: c, to: c2 }
  - { from: [b, c2], to: d }
  - { from: d, to: END }
`),
      saver(),
    );
    const hand = new StateGraph(Log)
      .addNode("a", say("a"))
      .addNode("b", say("b"))
      .addNode("c", say("c"))
      .addNode("c2", say("c2"))
      .addNode("d", say("d"))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("a", "c")
      .addEdge("c", "c2")
      .addEdge(["b", "c2"], "d")
      .addEdge("d", END)
      .compile(saver());
    const run = await expectSameRun(compiled, hand, { input: {} });
    expect(run.steps).toEqual([["a"], ["b", "c"], ["c2"], ["d"]]);
    // compile records edges and joins into LangGraph's builder itself (graph-builder.ts, for
    // speed): the builder holds what LangGraph's own addEdge would, in the same order.
    expect([...compiled.builder.edges]).toEqual([...hand.builder.edges]);
    expect([...compiled.builder.waitingEdges]).toEqual([...hand.builder.waitingEdges]);
  });

  it("START fans out, and a list into END ends each branch", async () => {
    const compiled = await compile(
      specDoc(`${HEADER}nodes:
  a: { kind: set, values: { log: a } }
  b: { kind: set, values: { log: b } }
edges:
  - { from: START, to: [a, b] }
  - { from: [a, b], to: END }
`),
      saver(),
    );
    const hand = new StateGraph(Log)
      .addNode("a", say("a"))
      .addNode("b", say("b"))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .addEdge("a", END)
      .addEdge("b", END)
      .compile(saver());
    const run = await expectSameRun(compiled, hand, { input: {} });
    expect(run.steps).toEqual([["a", "b"]]);
    expect([...compiled.builder.edges]).toEqual([...hand.builder.edges]);
  });
});

describe("route", () => {
  const spec = `${HEADER}nodes:
  inc: { kind: set, values: { count: "\${{ has(state.count) ? state.count + 1 : 1 }}", log: inc } }
  big: { kind: set, values: { log: big } }
edges:
  - { from: START, to: inc }
  - from: inc
    route:
      - { when: "state.count < 3", to: inc }
      - { when: "state.count == 3", to: big }
      - { default: END }
  - { from: big, to: END }
`;
  const hand = () =>
    new StateGraph(Log)
      .addNode("inc", (s) => ({ count: (s.count ?? 0) + 1, log: ["inc"] }))
      .addNode("big", say("big"))
      .addEdge(START, "inc")
      .addConditionalEdges("inc", (s) => (s.count < 3 ? "inc" : s.count === 3 ? "big" : END), [
        "inc",
        "big",
        END,
      ])
      .addEdge("big", END)
      .compile(saver());

  it("takes the first case that matches", async () => {
    const run = await expectSameRun(await compile(specDoc(spec), saver()), hand(), { input: {} });
    expect(run.steps).toEqual([["inc"], ["inc"], ["inc"], ["big"]]);
  });

  it("takes the default when no case matches", async () => {
    const run = await expectSameRun(await compile(specDoc(spec), saver()), hand(), {
      input: { count: 7 },
    });
    expect(run.steps).toEqual([["inc"]]);
  });

  it("fails the run, naming the source, when nothing matches and there is no default", async () => {
    const g = await compile(
      specDoc(`${HEADER}nodes:
  a: { kind: set, values: { log: a } }
edges:
  - { from: START, to: a }
  - from: a
    route:
      - { when: "size(state.log) > 5", to: END }
`),
    );
    const e = await rejection(g.invoke({}));
    expect(e).toMatchObject({ name: "GraphspecRunError", code: "route-no-match", node: "a" });
    expect(e.message).toBe("no case of the route from `a` matched, and the route has no `default`");
    expect(e.hint).toMatch(/default: END/);
  });

  it("points a failing `when` at its place in the spec file", async () => {
    const g = await compile(
      specDoc(`${HEADER}nodes:
  a: { kind: set, values: { log: a } }
edges:
  - { from: START, to: a }
  - from: a
    route:
      - { when: "state.count > 1", to: END }
      - { default: END }
`),
    );
    const e = await rejection(g.invoke({}));
    expect(e).toMatchObject({ code: "expression" });
    expect(e.message).toMatch(
      /^an edge: the expression at test\/fixtures\/compile\/core\/t\.yaml:14:24 failed: no such key: count$/,
    );
    expect(e.message).toMatch(/count/);
  });
});

describe("router", () => {
  const spec = (extra = "") => `${HEADER}  bad: { type: boolean, default: false }
nodes:
  first: { kind: set, values: { log: first${extra} } }
  big: { kind: set, values: { log: big } }
edges:
  - { from: START, to: first }
  - from: first
    router: { module: ./flaky.ts, export: pick, to: [big, END] }
  - { from: big, to: END }
`;

  it("goes where the function says", async () => {
    const hand = new StateGraph(
      Annotation.Root({
        ...Log.spec,
        bad: Annotation<boolean>({ reducer: (_a, b) => b, default: () => false }),
      }),
    )
      .addNode("first", say("first"))
      .addNode("big", say("big"))
      .addEdge(START, "first")
      .addConditionalEdges("first", (s) => ((s.count ?? 0) > 2 ? "big" : END), ["big", END])
      .addEdge("big", END)
      .compile(saver());
    const compiled = await compile(specDoc(spec()), saver());
    expect((await expectSameRun(compiled, hand, { input: { count: 5 } })).steps).toEqual([
      ["first"],
      ["big"],
    ]);
    expect((await expectSameRun(compiled, hand, { input: { count: 1 } })).steps).toEqual([
      ["first"],
    ]);
  });

  it("refuses a target the router did not declare", async () => {
    const g = await compile(specDoc(spec()));
    const e = await rejection(g.invoke({ bad: true }));
    expect(e).toMatchObject({ code: "router-target", node: "first" });
    expect(e.message).toBe(
      'the router from `first` returned "nowhere", which its `to` does not declare',
    );
    expect(e.hint).toBe("return one of `big`, `END`, or add it to the router's `to`");
  });
});

describe("map", () => {
  const spec = `${HEADER}nodes:
  plan: { kind: set, values: { topics: [x, y, z] } }
  write: { kind: set, values: { log: "\${{ 'on ' + state.topic }}" } }
  done: { kind: set, values: { log: done } }
edges:
  - { from: START, to: plan }
  - from: plan
    map: { over: state.topics, to: write, with: { topic: "\${{ item }}" } }
  - { from: write, to: done }
  - { from: done, to: END }
`;
  it("runs the target once per item, in parallel, with the item laid over the state", async () => {
    const hand = new StateGraph(Log)
      .addNode("plan", () => ({ topics: ["x", "y", "z"] }))
      .addNode("write", (s) => ({ log: [`on ${s.topic}`] }))
      .addNode("done", say("done"))
      .addEdge(START, "plan")
      .addConditionalEdges(
        "plan",
        (s) => s.topics.map((t: string) => new Send("write", { ...s, topic: t })),
        ["write"],
      )
      .addEdge("write", "done")
      .addEdge("done", END)
      .compile(saver());
    const run = await expectSameRun(await compile(specDoc(spec), saver()), hand, { input: {} });
    expect(run.steps).toEqual([["plan"], ["write", "write", "write"], ["done"]]);
    expect((run.state as { log: string[] }).log).toEqual(["on x", "on y", "on z", "done"]);
    // `with` values are the run's input only: `topic` was never written to the graph's state.
    expect(run.state).not.toHaveProperty("topic");
  });

  it("an empty list runs nothing", async () => {
    const g = await compile(specDoc(spec.replace("topics: [x, y, z]", "topics: []")));
    expect(await g.invoke({})).toEqual({ log: [], topics: [] });
  });

  it("checks `with` values against the channels they set", async () => {
    // `topics` holds anything here, so only the run can tell that an item is not a string.
    const loose = spec.replace(
      "topics: { type: array, items: { type: string } }",
      "topics: { type: array }",
    );
    const g = await compile(specDoc(loose.replace("topics: [x, y, z]", "topics: [x, 2]")));
    const e = await rejection(g.invoke({}));
    expect(e).toMatchObject({ code: "invalid-write", field: "topic" });
    expect(e.message).toBe(
      "the `map.with` of the edge to `write` wrote 2 to `topic`: `topic` must be a string, not 2",
    );
  });
});

describe("join, then decide", () => {
  it("waits for every source before a route, through a pass-through node", async () => {
    const compiled = await compile(
      specDoc(`${HEADER}nodes:
  a: { kind: set, values: { log: a } }
  b: { kind: set, values: { log: b } }
  b2: { kind: set, values: { log: b2 } }
  c: { kind: set, values: { log: c } }
edges:
  - { from: START, to: [a, b] }
  - { from: b, to: b2 }
  - from: [a, b2]
    route:
      - { when: "size(state.log) == 3", to: c }
      - { default: END }
  - { from: c, to: END }
`),
      saver(),
    );
    const hand = new StateGraph(Log)
      .addNode("a", say("a"))
      .addNode("b", say("b"))
      .addNode("b2", say("b2"))
      .addNode("c", say("c"))
      .addNode("__join_2", () => ({}))
      .addEdge(START, "a")
      .addEdge(START, "b")
      .addEdge("b", "b2")
      .addEdge(["a", "b2"], "__join_2")
      .addConditionalEdges("__join_2", (s) => (s.log.length === 3 ? "c" : END), ["c", END])
      .addEdge("c", END)
      .compile(saver());
    const run = await expectSameRun(compiled, hand, { input: {} });
    expect(run.steps).toEqual([["a", "b"], ["b2"], ["__join_2"], ["c"]]);
  });
});
