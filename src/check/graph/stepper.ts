/**
 * The model's edges arranged for stepping: the edges leaving each node, the join barriers (as
 * LangGraph lowers joins onto channels), and, computed once per node, what one run of it may
 * cause. Both the exact exploration (explore-steps.ts) and the pairwise fallback (steps.ts) read it.
 */
import { END, type GraphEdge, type GraphModel } from "../../spec/control-flow.js";
import { type Effects, edgeOptions, emptyEffects, product } from "./step-effects.js";

/**
 * A join's barrier. A static join lowers to one LangGraph waiting edge (one barrier channel) per
 * target node, so it has a barrier per target; a route, router or map from a list has one.
 */
export interface Barrier {
  key: string;
  join: GraphEdge;
  /** For a static join: the one target this barrier triggers. */
  target?: string;
}

/** The model's edges arranged for stepping. */
export interface Stepper {
  model: GraphModel;
  /** Edges leaving one node (or START), joins excluded. */
  out: Map<string, GraphEdge[]>;
  /** Joins that trigger a node, by source. A join into END only is left out: it causes nothing. */
  joinsOf: Map<string, GraphEdge[]>;
  /** Join edge index → its barriers. */
  barriers: Map<number, Barrier[]>;
  /** Static-join barriers by target node. */
  barriersInto: Map<string, Barrier[]>;
  barrierByKey: Map<string, Barrier>;
  alternatives: Map<string, Effects[]>;
}

/** Appends to the list under `key` (in place: a node with 1,000 edges stays linear). */
function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function stepper(model: GraphModel): Stepper {
  const out = new Map<string, GraphEdge[]>();
  const joinsOf = new Map<string, GraphEdge[]>();
  const barriers = new Map<number, Barrier[]>();
  const barriersInto = new Map<string, Barrier[]>();
  for (const e of model.edges) {
    if (e.sources.length === 1) {
      push(out, e.sources[0]!, e);
    } else if (e.targets.some((t) => t.name !== END)) {
      let own: Barrier[];
      if (e.kind === "static") {
        const targets = new Set(e.targets.map((t) => t.name).filter((n) => n !== END));
        own = [...targets].map((target) => ({ key: `${e.index}>${target}`, join: e, target }));
        for (const b of own) push(barriersInto, b.target!, b);
      } else own = [{ key: String(e.index), join: e }];
      barriers.set(e.index, own);
      for (const s of e.sources) push(joinsOf, s, e);
    }
    // A join into END only is left out: like an edge to END from each source, it causes nothing.
  }
  const barrierByKey = new Map([...barriers.values()].flat().map((b) => [b.key, b]));
  return { model, out, joinsOf, barriers, barriersInto, barrierByKey, alternatives: new Map() };
}

/** What one run of `node` may cause: one effect set per combination of its edges' choices. */
export function alternativesOf(st: Stepper, node: string, budget: { work: number }): Effects[] {
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
