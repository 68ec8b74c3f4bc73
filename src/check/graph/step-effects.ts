/**
 * What the tasks of one step cause (`Effects`), as an algebra: the ways one edge can fire, and
 * every combination of the choices of several edges or tasks, de-duplicated. Pure functions of the
 * model's edges, kept out of the exploration of step states that applies them (explore-steps.ts).
 * Every enumeration counts against the caller's budget and gives up with `BudgetExceeded`.
 */
import { END, type GraphEdge, type NodeRef } from "../../spec/control-flow.js";
import type { Trigger } from "./triggers.js";

/** One node's task(s) in a step: `many` when it runs more than once (several `Send`s). */
export interface Task {
  many: boolean;
  triggers: Trigger[];
}

/** What the tasks of one step cause: the next step's tasks and the join sources they complete. */
export interface Effects {
  pull: Map<string, Trigger>;
  push: Map<string, Task>;
  marks: Map<number, Set<string>>;
}

/** More choices at once than are worth enumerating: the caller falls back. */
export class BudgetExceeded extends Error {}

/** Router targets or multi-run alternatives beyond this are not enumerated as subsets. */
const MAX_SUBSET_BASE = 10;

export function emptyEffects(): Effects {
  return { pull: new Map(), push: new Map(), marks: new Map() };
}

const isEmpty = (e: Effects): boolean =>
  e.pull.size === 0 && e.push.size === 0 && e.marks.size === 0;

/**
 * The effects of both. Effects are not changed once made, so merging with nothing gives the other
 * itself rather than a copy: `product` starts from nothing, and most nodes add no join marks —
 * the copies were most of what the super-step analysis allocated.
 */
export function mergeEffects(x: Effects, y: Effects): Effects {
  if (isEmpty(y)) return x;
  if (isEmpty(x)) return y;
  return mergeInto(copyOf(x), y);
}

/** A copy that owns its maps and mark sets. */
const copyOf = (x: Effects): Effects => ({
  pull: new Map(x.pull),
  push: new Map(x.push),
  marks: new Map([...x.marks].map(([k, v]) => [k, new Set(v)])),
});

/** Adds `y` to `out`, which must own its maps and mark sets (as mergeEffects' results do). */
function mergeInto(out: Effects, y: Effects): Effects {
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
export function product(lists: Effects[][], budget: { work: number }): Effects[] {
  if (lists.length === 0) return [emptyEffects()];
  let acc = new Map<string, Effects>([["||", emptyEffects()]]);
  // Whether acc's one combination is product's own: after a pass that merged, it may be one of
  // the options itself (mergeEffects gives `y` for an empty `x`), which callers cache and reuse.
  let owned = true;
  for (const options of lists) {
    if (acc.size === 1 && options.length === 1) {
      // One combination stays one: merged in place, with no key, copied at most once (when not
      // owned). Copying and keying it for each of n single-choice tasks (a step of a 1,000-node
      // fan-out) was quadratic.
      if (--budget.work < 0) throw new BudgetExceeded();
      let [only] = acc.values();
      if (!owned) {
        only = copyOf(only!);
        acc = new Map([["", only]]);
        owned = true;
      }
      mergeInto(only!, options[0]!);
      continue;
    }
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
    owned = false;
  }
  return [...acc.values()];
}

/** The ways one edge can fire: one effect set per possible choice of targets. */
export function edgeOptions(edge: GraphEdge, trigger: Trigger): Effects[] {
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

/** A node that runs several times in one step: each run picks any alternative. */
export function multiAlternatives(alts: Effects[], budget: { work: number }): Effects[] {
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
