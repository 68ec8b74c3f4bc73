/**
 * Which nodes can run in the same super-step (`analyseSteps`), under the semantics below:
 * exactly by exploring the step states (explore-steps.ts) or, past a budget, by the coarser
 * pairwise analysis here.
 *
 * LangGraph runs a graph in Pregel super-steps: every node triggered in step k runs in step
 * k + 1, all in parallel, and their writes are applied together when the step ends.
 * - static edge `a → b`: b runs in the step after a. A node triggered several ways in one step
 *   runs once (a PULL task), but each `Send` of a map is a task of its own (PUSH).
 * - fan-out `a → [b, c]`: b and c run together in the next step.
 * - join `[a, b] → c` (a waiting edge): a barrier collects the sources as they finish, in any
 *   steps; c runs in the step after the last one. A join into END waits for nothing (LangGraph
 *   has no waiting edge into END), so it means "each of these ends".
 *   A `route`, `router` or `map` from a list fires the same way, once all sources have run.
 * - `route`: exactly one target (no match and no default fails the run: no next step).
 * - `router`: any non-empty subset of its declared targets.
 * - `map`: `Send` to its target once per item: zero, one or several runs in the next step.
 * - a PULL task consumes only the first of its node's trigger channels: a join that completes
 *   while its target is also triggered another way can stay complete, unconsumed, and never fire
 *   again (see `consumption` in explore-steps.ts).
 * - `on_error.goto`: when a node fails, LangGraph's error handler runs in the same step and
 *   goes to the target; the failed node's own edges do not fire.
 * - `defer: true`: the node's triggers are held until a step triggers no other node through an
 *   edge, then every held deferred node runs (LangGraph's `*AfterFinish` channels). A step that
 *   only `Send`s releases them too, so they may run beside map targets. A `Send` ignores `defer`.
 */

import { END, type GraphModel, reach, START } from "../../spec/control-flow.js";
import { exploreSteps } from "./explore-steps.js";
import { type Stepper, stepper } from "./stepper.js";
import { type CoRun, pairKey, type Trigger } from "./triggers.js";

export interface StepAnalysis {
  /**
   * Whether every reachable combination of steps was explored. When false (the graph has more
   * combinations than the budget), co-running comes from a coarser pairwise analysis that may
   * claim pairs that never meet, but never misses one.
   */
  exact: boolean;
  /** Nodes that run in some step (exact) or that START reaches (otherwise). */
  ran: ReadonlySet<string>;
  /** Join edges whose barrier completes in some run (every join, when not exact). */
  firedJoins: ReadonlySet<number>;
  /** Whether `a` and `b` can run in the same step; `a === b`: whether it can run twice in one step. */
  together(a: string, b: string): CoRun | undefined;
  /** The other nodes `together` pairs with `node`. */
  partners(node: string): ReadonlySet<string>;
}

export interface StepOptions {
  /** Distinct step states to explore before falling back to the pairwise analysis. */
  maxStates?: number;
}

/**
 * The pairwise fallback: a sound over-approximation in polynomial time. If x and y run in one
 * step, then a node each of them triggers can run together in the next; the targets one run of
 * a node triggers together (a fan-out, two edges, a router's subset) run together; deferred nodes
 * may all be released together; a map target may run many times. Joins are taken as edges from
 * each source, so their timing is lost: this may claim pairs that never meet. `partners` gets
 * each node's.
 */
function pairwiseSteps(
  st: Stepper,
  reachable: ReadonlySet<string>,
  partners: Map<string, Set<string>>,
): Map<string, CoRun> {
  const { model } = st;
  type Succ = { node: string; trigger: Trigger; push: boolean; edge: number };
  const succ = new Map<string, Succ[]>();
  const edgesOf = (n: string) => [...(st.out.get(n) ?? []), ...(st.joinsOf.get(n) ?? [])];
  for (const n of [START, ...model.nodes]) {
    const list: Succ[] = [];
    for (const e of edgesOf(n)) {
      const trigger: Trigger =
        e.sources.length > 1 ? { kind: "join", edge: e } : { kind: "edge", from: n, edge: e };
      for (const t of e.targets)
        if (t.name !== END)
          list.push({ node: t.name, trigger, push: e.kind === "map", edge: e.index });
    }
    const goto = model.onErrorGoto.get(n);
    if (goto !== undefined && goto !== END)
      list.push({ node: goto, trigger: { kind: "error", from: n }, push: false, edge: -1 });
    succ.set(n, list);
  }
  const pairs = new Map<string, CoRun>();
  const queue: [string, string][] = [];
  const deferredPull = (s: Succ) => !s.push && model.deferred.has(s.node);
  const released: Trigger = { kind: "deferred" };
  /** A deferred node runs when released, not right after what triggered it: the witness says so. */
  const why = (s: Succ): Trigger => (deferredPull(s) ? released : s.trigger);
  const add = (a: string, b: string, co: CoRun) => {
    const key = pairKey(a, b);
    if (pairs.has(key)) return;
    pairs.set(key, a <= b ? co : { a: co.b, b: co.a });
    if (a !== b) {
      for (const [x, y] of [
        [a, b],
        [b, a],
      ] as const)
        partners.set(x, (partners.get(x) ?? new Set()).add(y));
    }
    queue.push([a, b]);
  };
  /** x and y, triggered in the same step, run in the next one together (or x twice). */
  const meet = (x: Succ, y: Succ) => {
    if (deferredPull(x) !== deferredPull(y) && !x.push && !y.push) return; // deferred waits
    if (x.node === y.node && !x.push && !y.push) return; // one PULL task
    // Two triggers of one node (a map's send and an edge): both are the witness of its many runs.
    if (x.node === y.node && x !== y) add(x.node, x.node, { a: [why(x), why(y)], b: [why(y)] });
    else add(x.node, y.node, { a: [why(x)], b: [why(y)] });
  };
  for (const n of [START, ...model.nodes]) {
    if (n !== START && !reachable.has(n)) continue;
    const list = succ.get(n) ?? [];
    for (const [i, x] of list.entries()) {
      if (x.push) add(x.node, x.node, { a: [x.trigger], b: [x.trigger] });
      for (const y of list.slice(i + 1)) {
        const sameEdge = x.edge === y.edge && x.edge >= 0;
        const kind = sameEdge ? model.edges.find((e) => e.index === x.edge)?.kind : undefined;
        if (x.edge < 0 || y.edge < 0 || kind === "route") continue; // alternatives, not together
        meet(x, y);
      }
    }
  }
  // Held deferred nodes are released together, and beside whatever a map sends at that moment.
  const deferred = model.nodes.filter((n) => model.deferred.has(n) && reachable.has(n));
  for (const [i, a] of deferred.entries()) {
    for (const b of deferred.slice(i + 1)) add(a, b, { a: [released], b: [released] });
    for (const list of succ.values())
      for (const s of list)
        if (s.push && reachable.has(s.node)) add(a, s.node, { a: [released], b: [s.trigger] });
  }
  for (
    let [a, b] = queue.pop() ?? [];
    a !== undefined && b !== undefined;
    [a, b] = queue.pop() ?? []
  ) {
    const xs = succ.get(a) ?? [];
    const ys = succ.get(b) ?? [];
    if (a === b) {
      // Two runs of one node pick independently: any two of its successors meet.
      for (const [i, x] of xs.entries()) for (const y of xs.slice(i)) meet(x, y);
    } else for (const x of xs) for (const y of ys) meet(x, y);
  }
  return pairs;
}

/** The super-step analysis of a model (exported for tests; rules use `stepsOf`). */
export function analyseSteps(model: GraphModel, options: StepOptions = {}): StepAnalysis {
  const st = stepper(model);
  const explored = exploreSteps(st, options.maxStates ?? 20_000);
  if (explored) {
    const { coRuns } = explored;
    return {
      exact: true,
      ran: explored.ran,
      firedJoins: explored.firedJoins,
      together: (a, b) => coRuns.together(a, b),
      partners: (node) => coRuns.partners(node),
    };
  }
  const reachable = reach([START], model.anyFlow);
  reachable.delete(START);
  const partners = new Map<string, Set<string>>();
  const pairs = pairwiseSteps(st, reachable, partners);
  return {
    exact: false,
    ran: reachable,
    firedJoins: new Set(model.edges.filter((e) => e.sources.length > 1).map((e) => e.index)),
    together: oriented(pairs),
    partners: (node) => partners.get(node) ?? new Set(),
  };
}

/** Looks a pair up with `a` and `b` in the caller's order (pairs are stored sorted). */
const oriented =
  (pairs: ReadonlyMap<string, CoRun>) =>
  (a: string, b: string): CoRun | undefined => {
    const co = pairs.get(pairKey(a, b));
    return co && a > b ? { a: co.b, b: co.a } : co;
  };
