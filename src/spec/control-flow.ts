/**
 * The spec's control flow as LangGraph runs it: the graph model (nodes, edges, joins, error
 * handlers, deferred nodes, every node reference) built from spec data of any shape, and the
 * reachability helpers the graph rules share: which nodes START reaches, which can reach END.
 * Which nodes can run in the same super-step is a separate analysis (check/graph/steps.ts). It
 * lives in spec/ because compile needs it too: compile leaves out what `unreachable-node` reports
 * as reached by no path from START (`reachedFromStart`).
 */
import { isObject } from "./data.js";
import type { Path } from "./source-map.js";

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
      const listed = new Set<string>();
      raw.from.forEach((s, i) => {
        const n = refer(s, [...at, "from", i], "join-source");
        if (n !== undefined && nodeSet.has(n) && !listed.has(n)) {
          listed.add(n);
          sources.push(n);
        } else unresolvedSource = true;
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

/**
 * The nodes some path from START gets to: through edges and `on_error.goto`, a join only once every
 * one of its sources is reached (a join waiting for a node nothing reaches never fires). What is
 * not in it is what `unreachable-node` reports as reached by no path, and what compile leaves out.
 */
export function reachedFromStart(model: GraphModel): Set<string> {
  const seen = new Set<string>([START]);
  const queue = [START];
  const add = (n: string) => {
    if (seen.has(n)) return;
    seen.add(n);
    queue.push(n);
  };
  const from = new Map<string, GraphEdge[]>();
  for (const e of model.edges)
    for (const s of e.sources) {
      const list = from.get(s);
      if (list) list.push(e);
      else from.set(s, [e]);
    }
  // Sources of each edge not reached yet: an edge fires when its count drops to 0 (counting,
  // rather than checking all of a join's sources each time one is reached, keeps a 1,000-source
  // join linear). An edge's sources are distinct (buildGraph).
  const waiting = new Map(model.edges.map((e) => [e, e.sources.length]));
  for (let n = queue.pop(); n !== undefined; n = queue.pop()) {
    for (const e of from.get(n) ?? []) {
      const left = waiting.get(e)! - 1;
      waiting.set(e, left);
      if (left === 0) for (const t of e.targets) add(t.name);
    }
    const goto = model.onErrorGoto.get(n);
    if (goto !== undefined) add(goto);
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
