/**
 * The graph model's super-step analysis: which nodes can run in the same step.
 * Small graphs with known answers (random graphs against real LangGraph runs:
 * test/graph-langgraph.test.ts).
 */
import { describe, expect, it } from "vitest";
import { analyseSteps, type StepAnalysis } from "../src/check/graph/steps.js";
import { nodeWrites } from "../src/check/node-writes.js";
import { parseSpec } from "../src/index.js";
import { buildGraph } from "../src/spec/control-flow.js";
import type { GraphSpec } from "../src/spec/spec-types.generated.js";

/**
 * A spec with `set` nodes named in `nodes` (`name*`: deferred), the given edges (YAML flow
 * mappings), and extra fields for some nodes (`{ fetch: "on_error: { goto: fallback }" }`).
 */
function spec(nodes: string, edges: string[], fields: Record<string, string> = {}): GraphSpec {
  const declared = nodes.split(/\s+/).filter(Boolean);
  const node = (n: string) => {
    const name = n.replace("*", "");
    const more = [n.endsWith("*") ? "defer: true" : "", fields[name] ?? ""].filter(Boolean);
    return `  ${name}: { kind: set, values: { x: a }${more.map((f) => `, ${f}`).join("")} }`;
  };
  const text = [
    "version: 1",
    "name: t",
    "state: { x: { type: string } }",
    "nodes:",
    ...declared.map(node),
    "edges:",
    ...edges.map((e) => `  - ${e}`),
  ].join("\n");
  const doc = parseSpec(text, { file: "t.yaml" });
  expect(doc.problems).toEqual([]);
  return doc.data as GraphSpec;
}

const steps = (
  nodes: string,
  edges: string[],
  fields: Record<string, string> = {},
  maxStates?: number,
): StepAnalysis =>
  analyseSteps(buildGraph(spec(nodes, edges, fields)), maxStates ? { maxStates } : {});

const together = (s: StepAnalysis, a: string, b: string) => s.together(a, b) !== undefined;

describe("super-steps", () => {
  it("fan-out targets run together; a node and its successor do not", () => {
    const s = steps("a b c", ["{ from: START, to: a }", "{ from: a, to: [b, c] }"]);
    expect(s.exact).toBe(true);
    expect(together(s, "b", "c")).toBe(true);
    expect(together(s, "a", "b")).toBe(false);
    expect(together(s, "b", "b")).toBe(false);
  });

  it("names the first step two nodes meet in, and each node's partners", () => {
    // a and b meet after x (step 2), and again beside c after y (step 4): the witness is step 2's.
    const s = steps("x a b c y", [
      "{ from: START, to: x }",
      "{ from: x, to: [a, b] }",
      "{ from: a, to: y }",
      "{ from: y, to: [a, b, c] }",
    ]);
    expect(s.exact).toBe(true);
    const co = s.together("b", "a")!;
    expect(co.a).toEqual([expect.objectContaining({ kind: "edge", from: "x" })]);
    expect(co.b).toEqual([expect.objectContaining({ kind: "edge", from: "x" })]);
    expect(s.together("a", "c")!.a).toEqual([expect.objectContaining({ from: "y" })]);
    expect([...s.partners("a")].sort()).toEqual(["b", "c"]);
    expect([...s.partners("x")]).toEqual([]);
    // The pairwise fallback (a budget too small to explore) gives partners too.
    const coarse = steps(
      "x a b c y",
      ["{ from: START, to: x }", "{ from: x, to: [a, b, c] }"],
      {},
      1,
    );
    expect(coarse.exact).toBe(false);
    expect([...coarse.partners("a")].sort()).toEqual(["b", "c"]);
  });

  it("a route picks one target; a router may pick several", () => {
    const route = steps("a b c", [
      "{ from: START, to: a }",
      "{ from: a, route: [{ when: x, to: b }, { default: c }] }",
    ]);
    expect(together(route, "b", "c")).toBe(false);
    expect([...route.ran].sort()).toEqual(["a", "b", "c"]);
    const router = steps("a b c", [
      "{ from: START, to: a }",
      "{ from: a, router: { module: r.ts, to: [b, c, END] } }",
    ]);
    expect(together(router, "b", "c")).toBe(true);
  });

  it("two edges from one node both fire", () => {
    const s = steps("a b c d", [
      "{ from: START, to: a }",
      "{ from: a, to: b }",
      "{ from: a, route: [{ when: x, to: c }, { default: d }] }",
    ]);
    expect(together(s, "b", "c")).toBe(true);
    expect(together(s, "b", "d")).toBe(true);
    expect(together(s, "c", "d")).toBe(false);
  });

  it("a map target can run many times in one step, and beside the sender's other targets", () => {
    const s = steps("a b c", [
      "{ from: START, to: a }",
      "{ from: a, map: { over: state.x, to: b } }",
      "{ from: a, to: c }",
    ]);
    expect(together(s, "b", "b")).toBe(true);
    expect(together(s, "b", "c")).toBe(true);
  });

  it("runs of a map target choose their routes independently", () => {
    const s = steps("a m x y", [
      "{ from: START, to: a }",
      "{ from: a, map: { over: state.x, to: m } }",
      "{ from: m, route: [{ when: x, to: x }, { default: y }] }",
    ]);
    expect(together(s, "x", "y")).toBe(true);
  });

  it("a join's target runs the step after its last source, even across steps", () => {
    // check finishes in step 2, fetch2 in step 3: merge runs alone in step 4.
    const s = steps("go fetch fetch2 check merge", [
      "{ from: START, to: go }",
      "{ from: go, to: [fetch, check] }",
      "{ from: fetch, to: fetch2 }",
      "{ from: [fetch2, check], to: merge }",
    ]);
    expect(s.ran.has("merge")).toBe(true);
    expect(together(s, "merge", "fetch2")).toBe(false);
    expect(together(s, "merge", "check")).toBe(false);
    // mid completes the join in step 3, so merge runs beside late (mid's successor) in step 4.
    const t = steps("go fetch check mid late merge", [
      "{ from: START, to: go }",
      "{ from: go, to: [fetch, check] }",
      "{ from: fetch, to: mid }",
      "{ from: mid, to: late }",
      "{ from: [mid, check], to: merge }",
    ]);
    expect(together(t, "merge", "late")).toBe(true);
    expect(together(t, "merge", "mid")).toBe(false);
  });

  it("a join whose sources exclude each other never fires", () => {
    const s = steps("a b c d", [
      "{ from: START, to: a }",
      "{ from: a, route: [{ when: x, to: b }, { default: c }] }",
      "{ from: [b, c], to: d }",
    ]);
    expect(s.ran.has("d")).toBe(false);
    expect(s.firedJoins.size).toBe(0);
    expect(s.together("a", "d")).toBeUndefined();
    expect(s.together("d", "a")).toBeUndefined();
  });

  it("a join into END waits for nothing", () => {
    const s = steps("a b c", [
      "{ from: START, to: a }",
      "{ from: a, route: [{ when: x, to: b }, { default: c }] }",
      "{ from: [b, c], to: END }",
    ]);
    expect([...s.ran].sort()).toEqual(["a", "b", "c"]);
  });

  it("a deferred node waits until no edge triggers anything else", () => {
    const s = steps("split short long1 long2 sum*", [
      "{ from: START, to: split }",
      "{ from: split, to: [short, long1] }",
      "{ from: short, to: sum }",
      "{ from: long1, to: long2 }",
      "{ from: long2, to: sum }",
    ]);
    expect(together(s, "sum", "long2")).toBe(false);
    expect(s.ran.has("sum")).toBe(true);
  });

  it("deferred nodes are released together", () => {
    const s = steps("a b d* e*", [
      "{ from: START, to: a }",
      "{ from: a, to: [b, d] }",
      "{ from: b, to: e }",
    ]);
    expect(together(s, "d", "e")).toBe(true);
    expect(together(s, "d", "b")).toBe(false);
  });

  it("a step that only sends map items releases deferred nodes beside the map target", () => {
    // LangGraph finishes the deferred channels when no channel triggers a node, Sends or not.
    const s = steps("a c d*", [
      "{ from: START, to: a }",
      "{ from: a, to: d }",
      "{ from: a, map: { over: state.x, to: c } }",
    ]);
    expect(together(s, "d", "c")).toBe(true);
  });

  it("a join completed while its target is triggered another way may never fire again", () => {
    // Found by the LangGraph oracle below: n1 consumes only one of its two completed joins; the
    // other stays complete, so n2's later mark fires nothing, and n2 is released beside the
    // map's n0 runs.
    const s = steps("n0 n1 n2*", [
      "{ from: START, to: n0 }",
      "{ from: [n0, n2], to: n1 }",
      "{ from: [n2, n1], to: n1 }",
      "{ from: n2, route: [{ when: x, to: n2 }, { default: n0 }] }",
      "{ from: n2, map: { over: state.x, to: n0 } }",
      "{ from: START, to: [n2, n1] }",
    ]);
    expect(together(s, "n0", "n2")).toBe(true);
  });

  it("an error handler replaces the failed node's edges", () => {
    const s = steps(
      "fetch publish fallback",
      ["{ from: START, to: fetch }", "{ from: fetch, to: publish }"],
      { fetch: "on_error: { goto: fallback }" },
    );
    expect(s.ran.has("fallback")).toBe(true);
    expect(together(s, "publish", "fallback")).toBe(false);
  });

  it("cycles terminate the exploration", () => {
    const s = steps("a b c", [
      "{ from: START, to: a }",
      "{ from: a, to: [b, c] }",
      "{ from: b, route: [{ when: x, to: a }, { default: END }] }",
      "{ from: c, to: a }",
    ]);
    expect(s.exact).toBe(true);
    expect(together(s, "b", "c")).toBe(true);
    expect(together(s, "a", "a")).toBe(false);
  });

  it("over budget, the pairwise fallback keeps every pair the exact analysis finds", () => {
    const edges = [
      "{ from: START, to: go }",
      "{ from: go, to: [fetch, check] }",
      "{ from: fetch, to: mid }",
      "{ from: mid, to: late }",
      "{ from: [mid, check], to: merge }",
      "{ from: check, map: { over: state.x, to: late } }",
    ];
    const names = "go fetch check mid late merge";
    const exact = steps(names, edges);
    const coarse = steps(names, edges, {}, 1);
    expect(exact.exact).toBe(true);
    expect(coarse.exact).toBe(false);
    const all = names.split(" ");
    for (const a of all)
      for (const b of all) if (together(exact, a, b)) expect(together(coarse, a, b)).toBe(true);
  });
});

describe("nodeWrites", () => {
  const doc = parseSpec(
    `version: 1
name: w
state: { messages: { type: messages }, a: { type: string }, b: { type: string } }
nodes:
  llm: { kind: llm }
  llm_write: { kind: llm, write: { a: x } }
  tools: { kind: tools }
  tool: { kind: tool, tool: t, write: a }
  set: { kind: set, values: { a: 1, b: 2 } }
  sub: { kind: subgraph, graph: c.yaml }
  sub_out: { kind: subgraph, graph: c.yaml, output: { b: x } }
  fn: { kind: function, module: m.ts }
  fn_writes: { kind: function, module: m.ts, writes: [a], on_error: { write: { b: x } } }
  ask: { kind: interrupt, write: b }
edges: [{ from: START, to: llm }]
`,
    { file: "w.yaml" },
  );
  const data = doc.data as GraphSpec;
  const of = (name: string) => {
    const w = nodeWrites(data, name);
    return { channels: [...w.channels.keys()], unknown: w.unknown };
  };

  it("reads every node kind", () => {
    expect(of("llm")).toEqual({ channels: ["messages"], unknown: false });
    expect(of("llm_write")).toEqual({ channels: ["a"], unknown: false });
    expect(of("tools")).toEqual({ channels: ["messages"], unknown: false });
    expect(of("tool")).toEqual({ channels: ["a"], unknown: false });
    expect(of("set")).toEqual({ channels: ["a", "b"], unknown: false });
    expect(of("sub")).toEqual({ channels: [], unknown: true });
    expect(of("sub_out")).toEqual({ channels: ["b"], unknown: false });
    expect(of("fn")).toEqual({ channels: [], unknown: true });
    expect(of("fn_writes")).toEqual({ channels: ["a", "b"], unknown: false });
    expect(of("ask")).toEqual({ channels: ["b"], unknown: false });
  });

  it("keeps where each write is, for positions", () => {
    expect(nodeWrites(data, "tool").channels.get("a")).toEqual({
      path: ["nodes", "tool", "write"],
      at: "value",
    });
    expect(nodeWrites(data, "fn_writes").channels.get("b")).toEqual({
      path: ["nodes", "fn_writes", "on_error", "write", "b"],
      at: "key",
    });
  });
});

/**
 * How many distinct step states the exact analysis explores: the smallest budget (`maxStates`) it
 * finishes within. A state is the set of tasks (a map target's many runs apart from its one run),
 * the join barriers part-way, complete-but-stuck or held, and the deferred nodes waiting: two ways
 * to one state are explored once, and states that differ are each explored.
 */
function statesExplored(nodes: string, edges: string[], fields: Record<string, string> = {}) {
  const model = buildGraph(spec(nodes, edges, fields));
  for (let n = 1; n < 500; n++) if (analyseSteps(model, { maxStates: n }).exact) return n;
  throw new Error("more than 500 states");
}

describe("step states", () => {
  it("a state reached two ways is one state, whatever order its tasks were triggered in", () => {
    // START, p, q, then {b, c} from either.
    expect(
      statesExplored("p q b c", [
        "{ from: START, route: [{ when: x, to: p }, { default: q }] }",
        "{ from: p, to: [b, c] }",
        "{ from: q, to: [c, b] }",
        "{ from: b, to: END }",
        "{ from: c, to: END }",
      ]),
    ).toBe(4);
  });

  it("a map target's many runs and one run are two states, per target", () => {
    // START, p, q, b, b many, c, c many (no item: the run is over).
    expect(
      statesExplored("p q b c", [
        "{ from: START, route: [{ when: x, to: p }, { default: q }] }",
        "{ from: p, map: { over: state.x, to: b } }",
        "{ from: q, map: { over: state.x, to: c } }",
        "{ from: b, to: END }",
        "{ from: c, to: END }",
      ]),
    ).toBe(7);
  });

  it("a join part-way is a state of its own, by which sources it has seen", () => {
    // START, b, c, then x with the join holding b, and x with it holding c (d never runs).
    expect(
      statesExplored("b c x d z", [
        "{ from: START, route: [{ when: x, to: b }, { default: c }] }",
        "{ from: b, to: x }",
        "{ from: c, to: x }",
        "{ from: x, to: END }",
        "{ from: [b, c, d], to: z }",
        "{ from: z, to: END }",
      ]),
    ).toBe(5);
  });

  it("a join into END holds no barrier: it causes nothing", () => {
    // START, a, b0, then b (one state, whether the join has seen `a` or not).
    expect(
      statesExplored("a b0 b", [
        "{ from: START, route: [{ when: x, to: a }, { default: b0 }] }",
        "{ from: a, to: b }",
        "{ from: b0, to: b }",
        "{ from: [a, b], route: [{ when: x, to: END }, { default: END }] }",
        "{ from: [a, b0], to: END }",
        "{ from: b, to: END }",
      ]),
    ).toBe(4);
  });

  it("the order sources, barriers and waiting nodes arrived in does not make a new state", () => {
    // a and b start each other or go on to x: the joins' progress after `a` then `b` is the same
    // state as after `b` then `a` (c never runs, so no join completes).
    expect(
      statesExplored("a b c x z", [
        "{ from: START, route: [{ when: x, to: a }, { default: b }] }",
        "{ from: a, route: [{ when: x, to: b }, { default: x }] }",
        "{ from: b, route: [{ when: x, to: a }, { default: x }] }",
        "{ from: x, to: END }",
        "{ from: [a, b, c], to: z }",
        "{ from: [a, c], to: z }",
        "{ from: [b, c], to: z }",
        "{ from: c, to: END }",
        "{ from: z, to: END }",
      ]),
    ).toBe(10);
    // d1 and d2 wait in either order: START, p, q, {r, d1 waiting}, {r2, d2 waiting}, {x, both
    // waiting}, {d1, d2}.
    expect(
      statesExplored("p q r r2 x d1* d2*", [
        "{ from: START, route: [{ when: x, to: p }, { default: q }] }",
        "{ from: p, to: [d1, r] }",
        "{ from: r, to: [d2, x] }",
        "{ from: q, to: [d2, r2] }",
        "{ from: r2, to: [d1, x] }",
        "{ from: x, to: END }",
        "{ from: d1, to: END }",
        "{ from: d2, to: END }",
      ]),
    ).toBe(7);
  });
});

describe("step states of joins and deferred nodes", () => {
  it("a join into a deferred node is held until the release, then runs once", () => {
    // START, {a, b}, then d released: the held barrier is a state of its own only while other
    // nodes run beside it.
    const edges = [
      "{ from: START, to: [a, b] }",
      "{ from: [a, b], to: d }",
      "{ from: d, to: END }",
    ];
    expect(statesExplored("a b d*", edges)).toBe(3);
    const s = steps("a b d*", edges);
    expect([...s.ran].sort()).toEqual(["a", "b", "d"]);
    expect(s.firedJoins).toEqual(new Set([1]));
    // Held while `c` runs on: START, {a, b, c}, {c2} with the barrier held, {d}.
    const later = [
      ...edges,
      "{ from: START, to: c }",
      "{ from: c, to: c2 }",
      "{ from: c2, to: END }",
    ];
    expect(statesExplored("a b c c2 d*", later)).toBe(4);
    expect(together(steps("a b c c2 d*", later), "d", "c2")).toBe(false);
  });

  it("a deferred node triggered by an edge waits as a pending node, one state per wait", () => {
    // START, {a, b}, {b2} with d pending, {d}.
    expect(
      statesExplored("a b b2 d*", [
        "{ from: START, to: [a, b] }",
        "{ from: a, to: d }",
        "{ from: b, to: b2 }",
        "{ from: b2, to: END }",
        "{ from: d, to: END }",
      ]),
    ).toBe(4);
  });

  it("a join left complete and unconsumed is a state of its own (stuck)", () => {
    // The graph of "a join completed while its target is triggered another way…" above: each
    // choice of which channel n1 consumes, and each barrier left stuck, is explored once — 42
    // states as of this writing, pinned so that a change to what a state holds is noticed.
    const edges = [
      "{ from: START, to: n0 }",
      "{ from: [n0, n2], to: n1 }",
      "{ from: [n2, n1], to: n1 }",
      "{ from: n2, route: [{ when: x, to: n2 }, { default: n0 }] }",
      "{ from: n2, map: { over: state.x, to: n0 } }",
      "{ from: START, to: [n2, n1] }",
    ];
    expect(statesExplored("n0 n1 n2*", edges)).toBe(42);
  });

  it("a static join into a node and a deferred node holds the deferred one's barrier only", () => {
    // START, {a, b}, {c} with d's barrier held, {d}.
    expect(
      statesExplored("a b c d*", [
        "{ from: START, to: [a, b] }",
        "{ from: [a, b], to: [c, d] }",
        "{ from: c, to: END }",
        "{ from: d, to: END }",
      ]),
    ).toBe(4);
    const s = steps("a b c", [
      "{ from: START, to: [a, b] }",
      "{ from: [a, b], to: [c, END] }",
      "{ from: c, to: END }",
    ]);
    expect([...s.ran].sort()).toEqual(["a", "b", "c"]);
  });

  it("each channel a node may consume is a choice: an edge's, a join's, one left stuck", () => {
    // n is triggered by a's edge as the join completes: it consumes one, the other stays (stuck
    // join) or is gone (edge); when a runs again the stuck join is a channel again.
    const direct = [
      "{ from: START, to: [a, b] }",
      "{ from: a, to: n }",
      "{ from: [a, b], to: n }",
      "{ from: n, route: [{ when: x, to: a }, { default: END }] }",
    ];
    expect(statesExplored("a b n", direct)).toBe(8);
    // Three channels at once: the edge and two joins.
    const three = [...direct, "{ from: [b, a], to: n }"];
    expect(statesExplored("a b n", three)).toBe(18);
    // A deferred node both waiting (an edge) and held (a join) when it is released.
    const deferred = [
      "{ from: START, to: [a, b] }",
      "{ from: a, to: [d, a2] }",
      "{ from: a2, to: END }",
      "{ from: [a, b], to: d }",
      "{ from: d, route: [{ when: x, to: a }, { default: END }] }",
    ];
    expect(statesExplored("a a2 b d*", deferred)).toBe(11);
    // Two joins into a deferred node complete before its release: one is consumed, one stuck.
    const two = [
      "{ from: START, to: s }",
      "{ from: s, to: [a, b, c] }",
      "{ from: [a, b], to: d }",
      "{ from: [b, c], to: d }",
      "{ from: d, route: [{ when: x, to: s }, { default: END }] }",
    ];
    expect(statesExplored("s a b c d*", two)).toBe(9);
  });

  it("an error handler that goes to END runs nothing", () => {
    const s = steps(
      "a b",
      ["{ from: START, to: a }", "{ from: a, to: b }", "{ from: b, to: END }"],
      {
        a: "on_error: { goto: END }",
      },
    );
    expect([...s.ran].sort()).toEqual(["a", "b"]);
  });
});
