/**
 * The exact super-step analysis: explores every step state reachable from START (which tasks
 * run, which join barriers are part-way, complete or stuck, which deferred nodes wait), applying
 * the effects algebra (step-effects.ts) to each step's tasks. Gives up (undefined) past its budget,
 * and steps.ts then falls back to the pairwise analysis.
 */
import { START } from "../../spec/control-flow.js";
import {
  BudgetExceeded,
  type Effects,
  edgeOptions,
  emptyEffects,
  mergeEffects,
  multiAlternatives,
  product,
  type Task,
} from "./step-effects.js";
import { alternativesOf, type Barrier, type Stepper } from "./stepper.js";
import type { CoRun, Trigger } from "./triggers.js";

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

function stateKey(s: StepState): string {
  const barriers = [...s.barriers].map(([k, v]) => [k, typeof v === "string" ? v : [...v].sort()]);
  return JSON.stringify([
    [...s.active].map(([n, t]) => [n, t.many]).sort(),
    barriers.sort(),
    [...s.pending].sort(),
  ]);
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
    // Copied only to be changed: most steps mark no join (consumption copies before it changes).
    const barriers = effects.marks.size ? new Map(state.barriers) : state.barriers;
    const completed: Barrier[] = [];
    for (const [index, sources] of effects.marks) {
      for (const b of st.barriers.get(index)!) {
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
      // No join completed: the step's effects are all there is (read, never changed, below).
      const all = completed.length ? mergeEffects(effects, firing) : effects;
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
      if (value !== HELD) continue;
      // Only a static join's barrier is held: it has a target.
      const target = st.barrierByKey.get(key)!.target!;
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
export function exploreSteps(
  st: Stepper,
  maxStates: number,
): { ran: Set<string>; firedJoins: Set<number>; coRuns: CoRuns } | undefined {
  const ran = new Set<string>();
  const firedJoins = new Set<number>();
  const coRuns = new CoRuns();
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
      coRuns.record(state.active, ran);
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
  return { ran, firedJoins, coRuns };
}

/**
 * The steps explored, in the order they were reached, and the steps each node runs in. Two nodes
 * co-run when some step holds both; the first such step is the witness. Kept as steps rather than
 * as pairs: a step of n nodes (a fan-out) holds n² / 2 pairs, seconds for a 2,000-node fan-out,
 * while the rules ask about a few of them.
 */
export class CoRuns {
  private readonly steps: ReadonlyMap<string, Task>[] = [];
  private readonly stepsOf = new Map<string, number[]>();
  private readonly partnersOf = new Map<string, Set<string>>();

  /** Notes the nodes of one step (START aside), adding them to `ran`. */
  record(active: ReadonlyMap<string, Task>, ran: Set<string>): void {
    const index = this.steps.length;
    this.steps.push(active);
    for (const name of active.keys()) {
      if (name === START) continue;
      ran.add(name);
      const list = this.stepsOf.get(name);
      if (list) list.push(index);
      else this.stepsOf.set(name, [index]);
    }
  }

  /** Whether `a` and `b` run in one step (`a === b`: twice in one step), with the first witness. */
  together(a: string, b: string): CoRun | undefined {
    const inA = this.stepsOf.get(a);
    if (!inA) return undefined;
    if (a === b) {
      for (const i of inA) {
        const task = this.steps[i]!.get(a)!;
        if (task.many) return { a: task.triggers, b: task.triggers };
      }
      return undefined;
    }
    const inB = this.stepsOf.get(b);
    if (!inB) return undefined;
    // The steps of the node in fewer, in the order they were reached: the first holding both.
    const [fewer, other] = inA.length <= inB.length ? [inA, b] : [inB, a];
    for (const i of fewer) {
      const step = this.steps[i]!;
      if (step.has(other)) return { a: step.get(a)!.triggers, b: step.get(b)!.triggers };
    }
    return undefined;
  }

  /** The other nodes that run in a step with `node`. */
  partners(node: string): ReadonlySet<string> {
    let partners = this.partnersOf.get(node);
    if (!partners) {
      partners = new Set<string>();
      for (const i of this.stepsOf.get(node) ?? [])
        for (const n of this.steps[i]!.keys()) if (n !== node) partners.add(n); // START runs alone
      this.partnersOf.set(node, partners);
    }
    return partners;
  }
}
