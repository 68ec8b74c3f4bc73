/**
 * The super-step analysis against real LangGraph: random graphs run on LangGraph.js with random
 * route choices, and every pair of nodes seen in one step must be predicted. Seconds of runs: kept
 * apart from test/graph.test.ts's small graphs, which mutation testing runs per mutant
 * (stryker/groups.mjs, group `graph-walk`).
 */
import { RunnableLambda } from "@langchain/core/runnables";
import { Annotation, Send, StateGraph } from "@langchain/langgraph";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyseSteps } from "../src/check/graph/steps.js";
import { buildGraph } from "../src/spec/control-flow.js";

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
