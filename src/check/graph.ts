/**
 * The spec's control flow as LangGraph runs it, and the analyses the graph rules share:
 * which nodes START reaches, which can reach END, and which can run in the same super-step.
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
 *   again (see `consumption`).
 * - `on_error.goto`: when a node fails, LangGraph's error handler runs in the same step and
 *   goes to the target; the failed node's own edges do not fire.
 * - `defer: true`: the node's triggers are held until a step triggers no other node through an
 *   edge, then every held deferred node runs (LangGraph's `*AfterFinish` channels). A step that
 *   only `Send`s releases them too, so they may run beside map targets. A `Send` ignores `defer`.
 */
import { isObject } from "../spec/data.js";
import type { Path } from "../spec/source-map.js";
import type { CheckContext } from "./check-context.js";

export const START = "START";
export const END = "END";

type Obj = Record<string, unknown>;

export type EdgeKind = "static" | "route" | "router" | "map";

/** A node name as written in the spec, and where. */
export interface NodeRef {
  name: string;
  path: Path;
}

/** Where a reference stands, which decides whether START / END may be named there. */
export type RefRole = "source" | "join-source" | "target" | "map-target" | "goto" | "interrupt";

export interface Reference extends NodeRef {
  role: RefRole;
}

export interface GraphEdge {
  /** Index in `edges`. */
  index: number;
  kind: EdgeKind;
  /** Nodes (or START) it leaves, unknown names dropped. More than one: a join. */
  sources: string[];
  /** Every target it may go to. Unknown or misused names count as END (reported by unknown-node). */
  targets: NodeRef[];
  /** For `map`: the CEL giving the items. */
  over?: string;
}

export interface GraphModel {
  /** Declared node names, in file order. */
  nodes: string[];
  nodeSet: ReadonlySet<string>;
  edges: GraphEdge[];
  /** node → its `on_error.goto` target (a node or END). */
  onErrorGoto: Map<string, string>;
  deferred: ReadonlySet<string>;
  /** Every node reference in the spec, valid or not, for `unknown-node`. */
  references: Reference[];
  /** Targets of edges whose source names no node: whether they are reachable is unknown. */
  orphanTargets: ReadonlySet<string>;
  /** Nodes (and START) each node's successful run can trigger, joins included. */
  flow: ReadonlyMap<string, ReadonlySet<string>>;
  /** `flow` plus `on_error.goto`. */
  anyFlow: ReadonlyMap<string, ReadonlySet<string>>;
}

// ---------------------------------------------------------------------------------------------
// Building the model

const edgeKindOf = (raw: Obj): EdgeKind | undefined =>
  "to" in raw
    ? "static"
    : "route" in raw
      ? "route"
      : "router" in raw
        ? "router"
        : "map" in raw
          ? "map"
          : undefined;

/** Builds the control-flow model from spec data of any shape (it may be schema-invalid). */
export function buildGraph(spec: unknown): GraphModel {
  const root = isObject(spec) ? spec : {};
  const nodeData = isObject(root.nodes) ? root.nodes : {};
  // A node named START or END (reserved-name reports it) cannot be told from the keyword: leave it out.
  const nodes = Object.keys(nodeData).filter((n) => n !== START && n !== END);
  const nodeSet = new Set(nodes);
  const references: Reference[] = [];
  const edges: GraphEdge[] = [];
  const orphanTargets = new Set<string>();

  const refer = (name: unknown, path: Path, role: RefRole): string | undefined => {
    if (typeof name !== "string") return undefined;
    references.push({ name, path, role });
    return name;
  };
  /** Unknown and misused names (START as a target) go nowhere, like END: no cascade of findings. */
  const target = (name: unknown, path: Path, role: RefRole, into: NodeRef[]) => {
    const n = refer(name, path, role);
    if (n !== undefined) into.push({ name: nodeSet.has(n) ? n : END, path });
  };

  const rawEdges = Array.isArray(root.edges) ? root.edges : [];
  rawEdges.forEach((raw, index) => {
    if (!isObject(raw)) return;
    const at = ["edges", index];
    const sources: string[] = [];
    let unresolvedSource = false;
    if (Array.isArray(raw.from)) {
      raw.from.forEach((s, i) => {
        const n = refer(s, [...at, "from", i], "join-source");
        if (n !== undefined && nodeSet.has(n) && !sources.includes(n)) sources.push(n);
        else unresolvedSource = true;
      });
    } else {
      const n = refer(raw.from, [...at, "from"], "source");
      if (n !== undefined && (n === START || nodeSet.has(n))) sources.push(n);
      else unresolvedSource = true;
    }
    const kind = edgeKindOf(raw);
    const targets: NodeRef[] = [];
    let over: string | undefined;
    if (kind === "static") {
      if (Array.isArray(raw.to))
        for (const [i, t] of raw.to.entries()) target(t, [...at, "to", i], "target", targets);
      else target(raw.to, [...at, "to"], "target", targets);
    } else if (kind === "route" && Array.isArray(raw.route)) {
      raw.route.forEach((c, i) => {
        if (!isObject(c)) return;
        if ("to" in c) target(c.to, [...at, "route", i, "to"], "target", targets);
        if ("default" in c) target(c.default, [...at, "route", i, "default"], "target", targets);
      });
    } else if (kind === "router" && isObject(raw.router) && Array.isArray(raw.router.to)) {
      for (const [i, t] of raw.router.to.entries())
        target(t, [...at, "router", "to", i], "target", targets);
    } else if (kind === "map" && isObject(raw.map)) {
      target(raw.map.to, [...at, "map", "to"], "map-target", targets);
      if (typeof raw.map.over === "string") over = raw.map.over;
    }
    if (unresolvedSource && sources.length === 0) {
      for (const t of targets) if (t.name !== END) orphanTargets.add(t.name);
    }
    if (kind === undefined || sources.length === 0) return;
    edges.push(
      over === undefined
        ? { index, kind, sources, targets }
        : { index, kind, sources, targets, over },
    );
  });

  const onErrorGoto = new Map<string, string>();
  const deferred = new Set<string>();
  for (const name of nodes) {
    const node = nodeData[name];
    if (!isObject(node)) continue;
    if (node.defer === true) deferred.add(name);
    if (isObject(node.on_error)) {
      const n = refer(node.on_error.goto, ["nodes", name, "on_error", "goto"], "goto");
      if (n !== undefined) onErrorGoto.set(name, nodeSet.has(n) ? n : END);
    }
  }
  if (isObject(root.interrupts)) {
    for (const when of ["before", "after"] as const) {
      const list = root.interrupts[when];
      if (Array.isArray(list))
        for (const [i, n] of list.entries()) refer(n, ["interrupts", when, i], "interrupt");
    }
  }

  const flow = new Map<string, Set<string>>();
  const add = (m: Map<string, Set<string>>, from: string, to: string) => {
    const s = m.get(from) ?? new Set<string>();
    s.add(to);
    m.set(from, s);
  };
  for (const e of edges) {
    for (const s of e.sources) {
      if (!flow.has(s)) flow.set(s, new Set());
      for (const t of e.targets) add(flow, s, t.name);
    }
  }
  const anyFlow = new Map<string, Set<string>>();
  for (const [k, v] of flow) anyFlow.set(k, new Set(v));
  for (const [n, t] of onErrorGoto) add(anyFlow, n, t);

  return {
    nodes,
    nodeSet,
    edges,
    onErrorGoto,
    deferred,
    references,
    orphanTargets,
    flow,
    anyFlow,
  };
}

/** Every node reachable from `roots` through `succ` (the roots included). */
export function reach(
  roots: Iterable<string>,
  succ: ReadonlyMap<string, ReadonlySet<string>>,
): Set<string> {
  const seen = new Set<string>(roots);
  const queue = [...seen];
  for (let n = queue.pop(); n !== undefined; n = queue.pop()) {
    for (const m of succ.get(n) ?? []) {
      if (!seen.has(m)) {
        seen.add(m);
        queue.push(m);
      }
    }
  }
  return seen;
}

/** Inverts a successor map. */
export function predecessors(
  succ: ReadonlyMap<string, ReadonlySet<string>>,
): Map<string, Set<string>> {
  const pred = new Map<string, Set<string>>();
  for (const [from, tos] of succ) {
    for (const to of tos) {
      const s = pred.get(to) ?? new Set<string>();
      s.add(from);
      pred.set(to, s);
    }
  }
  return pred;
}

/** The model for the document being checked, built once. */
export const graphOf = (ctx: CheckContext): GraphModel =>
  ctx.memo("graph", () => buildGraph(ctx.spec));

/** Nodes a run can get to from START (through any edge or error handler). */
export const reachableOf = (ctx: CheckContext): Set<string> =>
  ctx.memo("graph.reachable", () => reach([START], graphOf(ctx).anyFlow));

// ---------------------------------------------------------------------------------------------
// Super-steps: which nodes can run in the same step

/** Why a node runs in some step. */
export type Trigger =
  | { kind: "edge"; from: string; edge: GraphEdge }
  | { kind: "join"; edge: GraphEdge }
  | { kind: "error"; from: string }
  | { kind: "deferred" };

/** One node's task(s) in a step: `many` when it runs more than once (several `Send`s). */
interface Task {
  many: boolean;
  triggers: Trigger[];
}

/** What the tasks of one step cause: the next step's tasks and the join sources they complete. */
interface Effects {
  pull: Map<string, Trigger>;
  push: Map<string, Task>;
  marks: Map<number, Set<string>>;
}

/** A join barrier that completed but was never consumed: it never fires again (see `consumption`). */
const STUCK = "stuck";
/** A complete barrier into a deferred node, waiting for the node's release; writes change nothing. */
const HELD = "held";

type BarrierState = Set<string> | typeof STUCK | typeof HELD;

interface StepState {
  active: Map<string, Task>;
  /** Barrier key (see `Barrier`) → sources seen so far, STUCK or HELD. */
  barriers: Map<string, BarrierState>;
  /** Deferred nodes triggered through an edge, waiting until no edge triggers anything else. */
  pending: Set<string>;
}

/** Why two nodes (or one node twice) can be in one step: the triggers of each. */
export interface CoRun {
  a: Trigger[];
  b: Trigger[];
}

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
}

export interface StepOptions {
  /** Distinct step states to explore before falling back to the pairwise analysis. */
  maxStates?: number;
}

/** More choices at once than are worth enumerating: the caller falls back. */
class BudgetExceeded extends Error {}

/** Router targets or multi-run alternatives beyond this are not enumerated as subsets. */
const MAX_SUBSET_BASE = 10;

const pairKey = (a: string, b: string) => (a <= b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

function emptyEffects(): Effects {
  return { pull: new Map(), push: new Map(), marks: new Map() };
}

function mergeEffects(x: Effects, y: Effects): Effects {
  const out: Effects = {
    pull: new Map(x.pull),
    push: new Map(x.push),
    marks: new Map([...x.marks].map(([k, v]) => [k, new Set(v)])),
  };
  for (const [n, t] of y.pull) if (!out.pull.has(n)) out.pull.set(n, t);
  for (const [n, t] of y.push) {
    const prev = out.push.get(n);
    out.push.set(
      n,
      prev ? { many: true, triggers: [...prev.triggers, ...t.triggers].slice(0, 2) } : t,
    );
  }
  for (const [k, v] of y.marks) {
    const s = out.marks.get(k) ?? new Set<string>();
    for (const m of v) s.add(m);
    out.marks.set(k, s);
  }
  return out;
}

const effectsKey = (e: Effects): string =>
  [
    [...e.pull.keys()].sort().join(","),
    [...e.push]
      .map(([n, t]) => (t.many ? `${n}*` : n))
      .sort()
      .join(","),
    [...e.marks]
      .map(([k, v]) => `${k}:${[...v].sort().join("+")}`)
      .sort()
      .join(","),
  ].join("|");

/** The non-empty subsets of `items` (callers keep `items` small). */
function subsets<T>(items: readonly T[]): T[][] {
  if (items.length > MAX_SUBSET_BASE) throw new BudgetExceeded();
  const out: T[][] = [];
  for (let mask = 1; mask < 1 << items.length; mask++)
    out.push(items.filter((_, i) => mask & (1 << i)));
  return out;
}

/** The combinations of one choice from each list, as merged effects, de-duplicated. */
function product(lists: Effects[][], budget: { work: number }): Effects[] {
  let acc = new Map<string, Effects>([["||", emptyEffects()]]);
  for (const options of lists) {
    const next = new Map<string, Effects>();
    for (const partial of acc.values()) {
      for (const option of options) {
        if (--budget.work < 0) throw new BudgetExceeded();
        const merged = mergeEffects(partial, option);
        const key = effectsKey(merged);
        if (!next.has(key)) next.set(key, merged);
      }
    }
    acc = next;
  }
  return [...acc.values()];
}

/** The ways one edge can fire: one effect set per possible choice of targets. */
function edgeOptions(edge: GraphEdge, trigger: Trigger): Effects[] {
  const nodesOf = (refs: readonly NodeRef[]) => [
    ...new Set(refs.map((r) => r.name).filter((n) => n !== END)),
  ];
  const pulling = (names: readonly string[]): Effects => {
    const e = emptyEffects();
    for (const n of names) e.pull.set(n, trigger);
    return e;
  };
  switch (edge.kind) {
    case "static":
      return [pulling(nodesOf(edge.targets))];
    case "route": {
      const choices = [...new Set(edge.targets.map((t) => t.name))];
      return choices.map((n) => pulling(n === END ? [] : [n]));
    }
    case "router": {
      const choices = [...new Set(edge.targets.map((t) => t.name))];
      return subsets(choices).map((pick) => pulling(pick.filter((n) => n !== END)));
    }
    case "map": {
      const [to] = nodesOf(edge.targets);
      if (to === undefined) return [emptyEffects()];
      const sending = (many: boolean): Effects => {
        const e = emptyEffects();
        e.push.set(to, { many, triggers: [trigger] });
        return e;
      };
      return [emptyEffects(), sending(false), sending(true)];
    }
  }
}

/**
 * A join's barrier. A static join lowers to one LangGraph waiting edge (one barrier channel) per
 * target node, so it has a barrier per target; a route, router or map from a list has one.
 */
interface Barrier {
  key: string;
  join: GraphEdge;
  /** For a static join: the one target this barrier triggers. */
  target?: string;
}

/** The model's edges arranged for stepping. */
interface Stepper {
  model: GraphModel;
  /** Edges leaving one node (or START), joins excluded. */
  out: Map<string, GraphEdge[]>;
  /** Joins that trigger a node, by source. A join into END only is left out: it waits for nothing. */
  joinsOf: Map<string, GraphEdge[]>;
  /** Join edge index → its barriers. */
  barriers: Map<number, Barrier[]>;
  /** Static-join barriers by target node. */
  barriersInto: Map<string, Barrier[]>;
  barrierByKey: Map<string, Barrier>;
  alternatives: Map<string, Effects[]>;
}

function stepper(model: GraphModel): Stepper {
  const out = new Map<string, GraphEdge[]>();
  const joinsOf = new Map<string, GraphEdge[]>();
  const barriers = new Map<number, Barrier[]>();
  const barriersInto = new Map<string, Barrier[]>();
  for (const e of model.edges) {
    if (e.sources.length === 1) {
      const s = e.sources[0]!;
      out.set(s, [...(out.get(s) ?? []), e]);
    } else if (e.targets.some((t) => t.name !== END)) {
      const targets = [...new Set(e.targets.map((t) => t.name).filter((n) => n !== END))];
      const own: Barrier[] =
        e.kind === "static"
          ? targets.map((target) => ({ key: `${e.index}>${target}`, join: e, target }))
          : [{ key: String(e.index), join: e }];
      barriers.set(e.index, own);
      for (const b of own)
        if (b.target !== undefined)
          barriersInto.set(b.target, [...(barriersInto.get(b.target) ?? []), b]);
      for (const s of e.sources) joinsOf.set(s, [...(joinsOf.get(s) ?? []), e]);
    } else {
      // Into END only: the same as an edge to END from each source.
      for (const s of e.sources) out.set(s, [...(out.get(s) ?? []), { ...e, sources: [s] }]);
    }
  }
  const barrierByKey = new Map([...barriers.values()].flat().map((b) => [b.key, b]));
  return { model, out, joinsOf, barriers, barriersInto, barrierByKey, alternatives: new Map() };
}

/** What one run of `node` may cause: one effect set per combination of its edges' choices. */
function alternativesOf(st: Stepper, node: string, budget: { work: number }): Effects[] {
  const cached = st.alternatives.get(node);
  if (cached) return cached;
  const lists = (st.out.get(node) ?? []).map((e) =>
    edgeOptions(e, { kind: "edge", from: node, edge: e }),
  );
  const marks = emptyEffects();
  for (const j of st.joinsOf.get(node) ?? []) marks.marks.set(j.index, new Set([node]));
  lists.push([marks]);
  const alts = product(lists, budget);
  const goto = st.model.onErrorGoto.get(node);
  if (goto !== undefined) {
    const onError = emptyEffects();
    if (goto !== END) onError.pull.set(goto, { kind: "error", from: node });
    alts.push(onError);
  }
  st.alternatives.set(node, alts);
  return alts;
}

/** A node that runs several times in one step: each run picks any alternative. */
function multiAlternatives(alts: Effects[], budget: { work: number }): Effects[] {
  const out = new Map<string, Effects>();
  for (const pick of subsets(alts)) {
    let e = emptyEffects();
    for (const a of pick) {
      if (--budget.work < 0) throw new BudgetExceeded();
      e = mergeEffects(e, a);
    }
    out.set(effectsKey(e), e);
  }
  return [...out.values()];
}

function stateKey(s: StepState): string {
  const active = [...s.active].map(([n, t]) => (t.many ? `${n}*` : n)).sort();
  const barriers = [...s.barriers]
    .filter(([, v]) => typeof v === "string" || v.size > 0)
    .map(([k, v]) => `${k}:${typeof v === "string" ? v : [...v].sort().join("+")}`)
    .sort();
  return `${active.join(",")}|${barriers.join(",")}|${[...s.pending].sort().join(",")}`;
}

/** The states the step after `state` can be in. Completed joins are added to `firedJoins`. */
function successors(
  st: Stepper,
  state: StepState,
  budget: { work: number },
  firedJoins: Set<number>,
): StepState[] {
  const perTask = [...state.active].map(([node, task]) => {
    const alts = alternativesOf(st, node, budget);
    return task.many ? multiAlternatives(alts, budget) : alts;
  });
  const out: StepState[] = [];
  for (const effects of product(perTask, budget)) {
    const barriers = new Map(state.barriers);
    const completed: Barrier[] = [];
    for (const [index, sources] of effects.marks) {
      for (const b of st.barriers.get(index) ?? []) {
        const before = barriers.get(b.key);
        if (typeof before === "string") continue; // complete already: the write changes nothing
        const seen = new Set([...(before ?? []), ...sources]);
        if (!b.join.sources.every((s) => seen.has(s))) {
          barriers.set(b.key, seen);
          continue;
        }
        firedJoins.add(index);
        if (b.target !== undefined && st.model.deferred.has(b.target)) barriers.set(b.key, HELD);
        else {
          completed.push(b);
          barriers.delete(b.key);
        }
      }
    }
    const firings = product(
      completed.map((b) => {
        const trigger: Trigger = { kind: "join", edge: b.join };
        if (b.target === undefined) return edgeOptions(b.join, trigger);
        const e = emptyEffects();
        e.pull.set(b.target, trigger);
        return [e];
      }),
      budget,
    );
    for (const firing of firings) {
      const all = mergeEffects(effects, firing);
      for (const consumed of consumption(st, all, effects, completed, barriers, budget))
        out.push(...nextStates(st, state, all, consumed, budget));
    }
  }
  return out;
}

/**
 * LangGraph's PULL task consumes only the first of its node's available trigger channels
 * (`proc.triggers.find`). A join barrier that completes while its target is also triggered
 * another way may so be left complete and unconsumed: later writes to it change nothing and it
 * never fires again. Which channel comes first depends on the order edges were added, so every
 * choice is explored. Returns the barrier maps that can follow. (Deferred targets are left out.)
 */
function consumption(
  st: Stepper,
  all: Effects,
  direct: Effects,
  completed: readonly Barrier[],
  barriers: Map<string, BarrierState>,
  budget: { work: number },
): Map<string, BarrierState>[] {
  const triggered = new Map<string, (string | undefined)[]>();
  for (const node of all.pull.keys()) {
    if (st.model.deferred.has(node)) continue;
    const channels: (string | undefined)[] = direct.pull.has(node) ? [undefined] : [];
    for (const b of st.barriersInto.get(node) ?? [])
      if (completed.includes(b) || barriers.get(b.key) === STUCK) channels.push(b.key);
    triggered.set(node, channels);
  }
  return consumeOne(triggered, barriers, budget);
}

/**
 * For each triggered node, one of its available channels (undefined: an edge's) is consumed and
 * the other join barriers stay STUCK; every choice is returned.
 */
function consumeOne(
  triggered: ReadonlyMap<string, readonly (string | undefined)[]>,
  barriers: Map<string, BarrierState>,
  budget: { work: number },
): Map<string, BarrierState>[] {
  let outcomes = [new Map(barriers)];
  for (const channels of triggered.values()) {
    if (channels.length === 1 && channels[0] !== undefined) {
      for (const m of outcomes) m.delete(channels[0]);
      continue;
    }
    if (channels.length < 2) continue;
    const next: Map<string, BarrierState>[] = [];
    for (const outcome of outcomes) {
      for (const chosen of channels) {
        if (--budget.work < 0) throw new BudgetExceeded();
        const m = new Map(outcome);
        for (const key of channels) {
          if (key === undefined) continue; // an edge's channel is cleared after the step anyway
          if (key === chosen) m.delete(key);
          else m.set(key, STUCK);
        }
        next.push(m);
      }
    }
    outcomes = next;
  }
  return outcomes;
}

/** The steps that can follow, given what the tasks caused; none when the run is over. */
function nextStates(
  st: Stepper,
  state: StepState,
  all: Effects,
  barriers: Map<string, BarrierState>,
  budget: { work: number },
): StepState[] {
  const active = new Map<string, Task>();
  const pending = new Set(state.pending);
  for (const [n, trigger] of all.pull) {
    if (st.model.deferred.has(n)) pending.add(n);
    else active.set(n, { many: false, triggers: [trigger] });
  }
  let outcomes = [barriers];
  if (active.size === 0) {
    // Nothing triggered through a channel: LangGraph finishes the deferred channels now, even
    // when `Send`s are pending, so held nodes run beside the map targets. Each released node
    // consumes one of its channels; its other complete barriers stay STUCK.
    const released = new Map<string, (string | undefined)[]>();
    for (const n of pending) released.set(n, [undefined]);
    for (const [key, value] of barriers) {
      const target = st.barrierByKey.get(key)?.target;
      if (value === HELD && target !== undefined)
        released.set(target, [...(released.get(target) ?? []), key]);
    }
    for (const [n, channels] of released) {
      for (const b of st.barriersInto.get(n) ?? [])
        if (barriers.get(b.key) === STUCK) channels.push(b.key);
      active.set(n, { many: false, triggers: [{ kind: "deferred" }] });
    }
    pending.clear();
    outcomes = consumeOne(released, barriers, budget);
  }
  for (const [n, task] of all.push) {
    const prev = active.get(n);
    active.set(
      n,
      prev ? { many: true, triggers: [...prev.triggers, ...task.triggers].slice(0, 2) } : task,
    );
  }
  if (active.size === 0) return []; // the run is over
  return outcomes.map((b) => ({ active: new Map(active), barriers: b, pending: new Set(pending) }));
}

/**
 * Explores every reachable step state from START (abstract execution: route and router choices,
 * map counts of zero, one or many, error handlers). Returns undefined when over budget.
 */
function exploreSteps(
  st: Stepper,
  maxStates: number,
): { ran: Set<string>; firedJoins: Set<number>; pairs: Map<string, CoRun> } | undefined {
  const ran = new Set<string>();
  const firedJoins = new Set<number>();
  const pairs = new Map<string, CoRun>();
  const budget = { work: maxStates * 5 };
  const start: StepState = {
    active: new Map([[START, { many: false, triggers: [] }]]),
    barriers: new Map(),
    pending: new Set(),
  };
  const seen = new Set<string>([stateKey(start)]);
  const queue: StepState[] = [start];
  try {
    for (let i = 0; i < queue.length; i++) {
      const state = queue[i]!;
      record(state, ran, pairs);
      for (const next of successors(st, state, budget, firedJoins)) {
        const key = stateKey(next);
        if (seen.has(key)) continue;
        if (seen.size >= maxStates) return undefined;
        seen.add(key);
        queue.push(next);
      }
    }
  } catch (e) {
    if (e instanceof BudgetExceeded) return undefined;
    throw e;
  }
  return { ran, firedJoins, pairs };
}

/** Notes the nodes of one step and the pairs among them (the first witness of each is kept). */
function record(state: StepState, ran: Set<string>, pairs: Map<string, CoRun>): void {
  const names = [...state.active.keys()].filter((n) => n !== START);
  for (const [i, a] of names.entries()) {
    ran.add(a);
    const ta = state.active.get(a)!;
    if (ta.many && !pairs.has(pairKey(a, a)))
      pairs.set(pairKey(a, a), { a: ta.triggers, b: ta.triggers });
    for (const b of names.slice(i + 1)) {
      const key = pairKey(a, b);
      if (pairs.has(key)) continue;
      const tb = state.active.get(b)!;
      pairs.set(
        key,
        a <= b ? { a: ta.triggers, b: tb.triggers } : { a: tb.triggers, b: ta.triggers },
      );
    }
  }
}

/**
 * The pairwise fallback: a sound over-approximation in polynomial time. If x and y run in one
 * step, then a node each of them triggers can run together in the next; the targets one run of
 * a node triggers together (a fan-out, two edges, a router's subset) run together; deferred nodes
 * may all be released together; a map target may run many times. Joins are taken as edges from
 * each source, so their timing is lost: this may claim pairs that never meet.
 */
function pairwiseSteps(st: Stepper, reachable: ReadonlySet<string>): Map<string, CoRun> {
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
  const add = (a: string, b: string, co: CoRun) => {
    const key = pairKey(a, b);
    if (pairs.has(key)) return;
    pairs.set(key, a <= b ? co : { a: co.b, b: co.a });
    queue.push([a, b]);
  };
  /** x and y, triggered in the same step, run in the next one together (or x twice). */
  const meet = (x: Succ, y: Succ) => {
    if (deferredPull(x) !== deferredPull(y) && !x.push && !y.push) return; // deferred waits
    if (x.node === y.node && !x.push && !y.push) return; // one PULL task
    add(x.node, y.node, { a: [x.trigger], b: [y.trigger] });
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
  const released: Trigger = { kind: "deferred" };
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
    return {
      exact: true,
      ran: explored.ran,
      firedJoins: explored.firedJoins,
      together: oriented(explored.pairs),
    };
  }
  const reachable = reach([START], model.anyFlow);
  reachable.delete(START);
  const pairs = pairwiseSteps(st, reachable);
  return {
    exact: false,
    ran: reachable,
    firedJoins: new Set(model.edges.filter((e) => e.sources.length > 1).map((e) => e.index)),
    together: oriented(pairs),
  };
}

/** Looks a pair up with `a` and `b` in the caller's order (pairs are stored sorted). */
const oriented =
  (pairs: ReadonlyMap<string, CoRun>) =>
  (a: string, b: string): CoRun | undefined => {
    const co = pairs.get(pairKey(a, b));
    return co && a > b ? { a: co.b, b: co.a } : co;
  };

/** The step analysis for the document being checked, computed once. */
export const stepsOf = (ctx: CheckContext): StepAnalysis =>
  ctx.memo("graph.steps", () => analyseSteps(graphOf(ctx)));

// ---------------------------------------------------------------------------------------------
// Explaining co-runs in messages

export const edgeName = (edge: GraphEdge | number): string =>
  `edges[${typeof edge === "number" ? edge : edge.index}]`;

const endpoint = (n: string) => (n === START ? "START" : `\`${n}\``);

function runs(t: Trigger): string {
  switch (t.kind) {
    case "edge":
      return `runs after ${endpoint(t.from)} (${t.edge.kind === "static" ? "" : `${t.edge.kind} at `}${edgeName(t.edge)})`;
    case "join":
      return `runs when the join at ${edgeName(t.edge)} completes`;
    case "error":
      return `runs when \`${t.from}\` fails (its \`on_error.goto\`)`;
    case "deferred":
      return "is deferred (`defer: true`) and runs when no edge triggers anything else";
  }
}

/** Why `a` and `b` run in one step, for a message: "both run after `plan` (fan-out at edges[2])". */
export function explainTogether(a: string, b: string, co: CoRun): string {
  const [ta, tb] = [co.a[0], co.b[0]];
  if (!ta || !tb) return `\`${a}\` and \`${b}\` can run in the same step`;
  if (ta.kind === "deferred" && tb.kind === "deferred")
    return "both are deferred (`defer: true`) and run together when no edge triggers anything else";
  if (ta.kind === "join" && tb.kind === "join" && ta.edge === tb.edge)
    return `both run when the join at ${edgeName(ta.edge)} completes`;
  if (ta.kind === "edge" && tb.kind === "edge" && ta.from === tb.from) {
    const from = endpoint(ta.from);
    if (ta.edge.index !== tb.edge.index) {
      const [e1, e2] = [ta.edge.index, tb.edge.index].sort((x, y) => x - y);
      return `both run after ${from} (${edgeName(e1!)} and ${edgeName(e2!)} both leave it)`;
    }
    if (ta.edge.kind === "router")
      return `both run after ${from} (its router at ${edgeName(ta.edge)} may pick both)`;
    return `both run after ${from} (fan-out at ${edgeName(ta.edge)})`;
  }
  return `\`${a}\` ${runs(ta)} while \`${b}\` ${runs(tb)}, in the same step`;
}

/** Why `node` runs more than once in one step. */
export function explainMany(node: string, co: CoRun): string {
  const maps = co.a.filter(
    (t): t is Extract<Trigger, { kind: "edge" | "join" }> =>
      (t.kind === "edge" || t.kind === "join") && t.edge.kind === "map",
  );
  const [first, second] = co.a;
  if (maps.length === 1 && co.a.length === 1 && maps[0]!.edge.over !== undefined)
    return `the map at ${edgeName(maps[0]!.edge)} runs it once per item of \`${maps[0]!.edge.over}\`, in parallel`;
  if (maps.length >= 2)
    return `the maps at ${edgeName(maps[0]!.edge)} and ${edgeName(maps[1]!.edge)} can both send it work in one step`;
  if (maps.length === 1 && first && second) {
    const other = first === maps[0] ? second : first;
    return `the map at ${edgeName(maps[0]!.edge)} sends it work while it also ${runs(other).replace(/^runs /, "is triggered ")}`;
  }
  return `\`${node}\` can run several times in one step`;
}

/** "`a` and `b`", "`a`, `b` and `c`". */
export function andNames(names: readonly string[]): string {
  const quoted = names.map((n) => `\`${n}\``);
  return quoted.length <= 1
    ? quoted.join("")
    : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}
