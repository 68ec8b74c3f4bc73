/**
 * The graph model's super-step analysis: which nodes can run in the same step.
 * Small graphs with known answers, then random graphs checked against real LangGraph runs.
 */
import { RunnableLambda } from "@langchain/core/runnables";
import { Annotation, Send, StateGraph } from "@langchain/langgraph";
import fc from "fast-check";
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

/** Random graphs per run; raise with GRAPH_ORACLE_RUNS=2000 for a longer search. */
const ORACLE_RUNS = Number(process.env.GRAPH_ORACLE_RUNS ?? 150);

describe("super-steps against real LangGraph runs", () => {
  type RandomEdge =
    | { kind: "static"; from: string; to: string[] }
    | { kind: "join"; from: string[]; to: string }
    | { kind: "route" | "router"; from: string; to: string[] }
    | { kind: "map"; from: string; to: string };

  const graphArb = fc.integer({ min: 2, max: 5 }).chain((n) => {
    const names = Array.from({ length: n }, (_, i) => `n${i}`);
    const node = fc.constantFrom(...names);
    const source = fc.constantFrom("START", ...names);
    const targets = fc.uniqueArray(fc.constantFrom(...names, "END"), {
      minLength: 1,
      maxLength: 3,
    });
    const edge: fc.Arbitrary<RandomEdge> = fc.oneof(
      fc.record({ kind: fc.constant("static" as const), from: source, to: targets }),
      fc.record({
        kind: fc.constant("join" as const),
        from: fc.uniqueArray(node, { minLength: 2, maxLength: 3 }),
        to: node,
      }),
      fc.record({
        kind: fc.constantFrom("route" as const, "router" as const),
        from: source,
        to: targets,
      }),
      fc.record({ kind: fc.constant("map" as const), from: source, to: node }),
    );
    return fc.record({
      names: fc.constant(names),
      deferred: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
      entry: node,
      edges: fc.array(edge, { minLength: 1, maxLength: 7 }),
    });
  });

  type RandomGraph = typeof graphArb extends fc.Arbitrary<infer T> ? T : never;

  const toSpec = (g: RandomGraph): unknown => ({
    version: 1,
    name: "random",
    state: { x: { type: "string" } },
    nodes: Object.fromEntries(
      g.names.map((n, i) => [n, { kind: "set", values: { x: "a" }, defer: g.deferred[i] }]),
    ),
    edges: [
      { from: "START", to: g.entry },
      ...g.edges.map((e) =>
        e.kind === "static" || e.kind === "join"
          ? { from: e.from, to: e.to }
          : e.kind === "route"
            ? { from: e.from, route: e.to.map((t) => ({ when: "true", to: t })) }
            : e.kind === "router"
              ? { from: e.from, router: { module: "r.ts", to: e.to } }
              : { from: e.from, map: { over: "state.x", to: e.to } },
      ),
    ],
  });

  /** A small seeded PRNG, so a failing run can be replayed. */
  const prng = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  /** Runs the graph on LangGraph with random route choices; returns the nodes of each step. */
  async function run(g: RandomGraph, seed: number): Promise<string[][] | undefined> {
    const random = prng(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const log: [string, number][] = [];
    // Maps inside cycles multiply tasks every step (3 sends a step for 12 steps is 3^12 tasks):
    // bound each run. Steps logged before the cut-off are still real observations.
    let sends = 0;
    let tasks = 0;
    const State = Annotation.Root({ x: Annotation<string> });
    const builder = new StateGraph(State);
    g.names.forEach((n, i) => {
      builder.addNode(
        n,
        ((_: unknown, config: { metadata?: Record<string, unknown> }) => {
          if (++tasks > 200) throw new Error("task budget spent");
          log.push([n, Number(config.metadata?.langgraph_step)]);
          return {};
        }) as unknown as Parameters<typeof builder.addNode>[1],
        g.deferred[i] ? { defer: true } : {},
      );
    });
    const any = builder as unknown as {
      addEdge(from: string | string[], to: string): void;
      addConditionalEdges(from: string, path: RunnableLambda<unknown, unknown>): void;
    };
    /** LangGraph names a branch after its runnable; two from one node need two names. */
    const named = (name: string, f: (s: unknown) => unknown) => {
      const r = RunnableLambda.from(f);
      r.name = name;
      return r;
    };
    any.addEdge("__start__", g.entry);
    const id = (n: string) => (n === "START" ? "__start__" : n === "END" ? "__end__" : n);
    g.edges.forEach((e, i) => {
      if (e.kind === "static") for (const t of e.to) any.addEdge(id(e.from), id(t));
      else if (e.kind === "join") any.addEdge(e.from, e.to);
      else if (e.kind === "route")
        any.addConditionalEdges(
          id(e.from),
          named(`e${i}`, () => id(pick(e.to))),
        );
      else if (e.kind === "router")
        any.addConditionalEdges(
          id(e.from),
          named(`e${i}`, () => {
            const some = e.to.filter(() => random() < 0.5);
            return (some.length ? some : [pick(e.to)]).map(id);
          }),
        );
      else
        any.addConditionalEdges(
          id(e.from),
          named(`e${i}`, () => {
            const count = sends > 40 ? 0 : pick([0, 1, 2, 3]);
            sends += count;
            return Array.from({ length: count }, () => new Send(e.to as string, {}));
          }),
        );
    });
    let compiled: { invoke(input: unknown, config: unknown): Promise<unknown> };
    try {
      compiled = builder.compile() as typeof compiled;
    } catch {
      return undefined; // a graph LangGraph itself rejects (e.g. a node nothing leads to)
    }
    await compiled.invoke({}, { recursionLimit: 12 }).catch(() => undefined);
    const byStep = new Map<number, string[]>();
    for (const [n, step] of log) byStep.set(step, [...(byStep.get(step) ?? []), n]);
    return [...byStep.values()];
  }

  it(
    "every pair seen in one step of a real run is predicted",
    async () => {
      let compared = 0;
      await fc.assert(
        fc.asyncProperty(graphArb, fc.integer(), async (g, seed) => {
          const analysis = analyseSteps(buildGraph(toSpec(g)));
          for (let r = 0; r < 4; r++) {
            const seen = await run(g, seed + r);
            if (!seen) return;
            compared++;
            for (const step of seen) {
              for (const [i, a] of step.entries()) {
                expect(analysis.ran.has(a), `${a} ran`).toBe(true);
                for (const b of step.slice(i + 1))
                  expect(analysis.together(a, b), `${a} with ${b}`).toBeDefined();
              }
            }
          }
        }),
        { numRuns: ORACLE_RUNS },
      );
      expect(compared).toBeGreaterThan(ORACLE_RUNS / 2);
    },
    30_000 + ORACLE_RUNS * 200,
  );
});
