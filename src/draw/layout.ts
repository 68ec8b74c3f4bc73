/**
 * Where each node, edge and subgraph cluster of a drawable graph goes: a layered top-to-bottom
 * layout by @dagrejs/dagre (the maintained dagre, the layout LangGraph's own Mermaid drawings
 * follow). Pure — no DOM, text widths estimated — so the web page and `graphspec draw --format svg`
 * lay out the same graph the same way. Coordinates are centres, in px at a 13 px font.
 */
import dagre from "@dagrejs/dagre";
import type { DrawableEdge, DrawableGraph, DrawableNode } from "./drawable.js";
import { distinctShortLabels } from "./short-label.js";

export interface LaidNode {
  id: string;
  /** The name shown: the last part of an xray id (`inner` of `sub:inner`). */
  label: string;
  kind: string;
  x: number;
  y: number;
  width: number;
  height: number;
  node: DrawableNode;
}

/** A join (`from: [a, b]`): a bar the sources' edges meet at before one edge goes on to the target. */
export interface LaidJoin {
  id: string;
  sources: string[];
  target: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LaidEdge {
  /** The graph's edge; for the edges into a join bar, its first edge. */
  edge: DrawableEdge;
  source: string;
  target: string;
  points: { x: number; y: number }[];
  /** Where the label (`edge.data`) is centred, when it has one. */
  label?: { text: string; x: number; y: number; width: number; height: number };
}

/** The nodes of an expanded subgraph (xray), around them. */
export interface LaidCluster {
  /** The subgraph node's id: the `metadata.parent` of the nodes inside. */
  id: string;
  label: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** The enclosing cluster, for nested subgraphs. */
  parent?: string;
}

export interface Layout {
  width: number;
  height: number;
  nodes: LaidNode[];
  joins: LaidJoin[];
  edges: LaidEdge[];
  clusters: LaidCluster[];
}

/** Average glyph width of system-ui at 13 px, a little generous so that text never spills out. */
const CHAR_PX = 7.6;
const LABEL_CHAR_PX = 6.6;
const NODE_HEIGHT = 46;
const TERMINAL = { width: 72, height: 30 };
const JOIN = { width: 48, height: 6 };
const MARGIN = 16;

export const textWidth = (text: string, px = CHAR_PX) => Math.ceil(text.length * px);

const labelOf = (n: DrawableNode) => {
  if (n.metadata?.kind === "start" || n.id.endsWith("__start__")) return "START";
  if (n.metadata?.kind === "end" || n.id.endsWith("__end__")) return "END";
  return n.id.slice(n.id.lastIndexOf(":") + 1);
};
const kindOf = (n: DrawableNode) =>
  n.metadata?.kind ??
  (n.id.endsWith("__start__") ? "start" : n.id.endsWith("__end__") ? "end" : n.type);

const sizeOf = (label: string, kind: string, unreachable: boolean) =>
  kind === "start" || kind === "end"
    ? TERMINAL
    : // The name on one line, the kind under it; room for the badges at the right (and a
      // subgraph's open button).
      {
        width:
          Math.max(
            96,
            textWidth(label) + 44,
            textWidth(unreachable ? `${kind} · unreachable` : kind, LABEL_CHAR_PX) + 44,
          ) + (kind === "subgraph" ? 24 : 0),
        height: NODE_HEIGHT,
      };

/** The clusters of an xray drawing: every `metadata.parent`, nested by their ids (`a:b` is inside `a`). */
function clustersOf(nodes: DrawableNode[]): Map<string, string | undefined> {
  const ids = new Set<string>();
  for (const n of nodes) if (n.metadata?.parent) ids.add(n.metadata.parent);
  // A nested parent's own parent may have no node of its own directly inside: add every prefix.
  for (const id of [...ids]) {
    const parts = id.split(":");
    for (let i = 1; i < parts.length; i++) ids.add(parts.slice(0, i).join(":"));
  }
  const clusters = new Map<string, string | undefined>();
  for (const id of ids) {
    const cut = id.lastIndexOf(":");
    clusters.set(id, cut > 0 ? id.slice(0, cut) : undefined);
  }
  return clusters;
}

const joinKey = (e: DrawableEdge) =>
  `${e.join!.join("+")}>${e.target}|${e.kind ?? ""}|${e.data ?? ""}`;

export function layoutGraph(graph: DrawableGraph): Layout {
  const g = new dagre.graphlib.Graph({ multigraph: true, compound: true });
  g.setGraph({
    rankdir: "TB",
    nodesep: 28,
    ranksep: 44,
    edgesep: 12,
    marginx: MARGIN,
    marginy: MARGIN,
  });
  g.setDefaultEdgeLabel(() => ({}));

  const clusters = clustersOf(graph.nodes);
  for (const [id] of clusters) g.setNode(`cluster:${id}`, { label: id, paddingTop: 24 });
  for (const [id, parent] of clusters)
    if (parent) g.setParent(`cluster:${id}`, `cluster:${parent}`);

  const known = new Set<string>();
  for (const n of graph.nodes) {
    const label = labelOf(n);
    const kind = kindOf(n);
    g.setNode(`n:${n.id}`, { ...sizeOf(label, kind, n.metadata?.unreachable === true), id: n.id });
    known.add(n.id);
    if (n.metadata?.parent && clusters.has(n.metadata.parent))
      g.setParent(`n:${n.id}`, `cluster:${n.metadata.parent}`);
  }

  // A join bar per joined edge group; the sources' edges end at it, one edge leaves it.
  const joins = new Map<
    string,
    { id: string; sources: string[]; target: string; edge: DrawableEdge }
  >();
  let count = 0;
  // Cut as one set: two long conditions that begin alike stay told apart.
  const labels = distinctShortLabels(graph.edges.flatMap((e) => (e.data ? [e.data] : [])));
  const addEdge = (from: string, to: string, e: DrawableEdge, labelled: boolean) => {
    const name = `e${count++}`;
    const text = labelled && e.data ? labels.get(e.data) : undefined;
    g.setEdge(
      from,
      to,
      text
        ? { edge: e, text, width: textWidth(text, LABEL_CHAR_PX) + 8, height: 18, labelpos: "c" }
        : { edge: e },
      name,
    );
  };
  for (const e of graph.edges) {
    if (!known.has(e.source) || !known.has(e.target)) continue;
    if (e.join && e.join.length > 1) {
      const key = joinKey(e);
      let join = joins.get(key);
      if (!join) {
        join = { id: `join:${key}`, sources: e.join, target: e.target, edge: e };
        joins.set(key, join);
        g.setNode(join.id, { ...JOIN });
        // A join inside a subgraph stays inside its cluster.
        const parent = graph.nodes.find((n) => n.id === e.target)?.metadata?.parent;
        if (parent && clusters.has(parent)) g.setParent(join.id, `cluster:${parent}`);
        addEdge(join.id, `n:${e.target}`, e, true);
      }
      addEdge(`n:${e.source}`, join.id, e, false);
      continue;
    }
    addEdge(`n:${e.source}`, `n:${e.target}`, e, true);
  }

  dagre.layout(g);

  const nodes: LaidNode[] = graph.nodes.map((n) => {
    const laid = g.node(`n:${n.id}`);
    return {
      id: n.id,
      label: labelOf(n),
      kind: kindOf(n),
      x: laid.x ?? 0,
      y: laid.y ?? 0,
      width: laid.width,
      height: laid.height,
      node: n,
    };
  });
  const laidJoins: LaidJoin[] = [...joins.values()].map((j) => {
    const laid = g.node(j.id);
    return {
      id: j.id,
      sources: j.sources,
      target: j.target,
      x: laid.x ?? 0,
      y: laid.y ?? 0,
      width: laid.width,
      height: laid.height,
    };
  });
  const strip = (v: string) => (v.startsWith("n:") ? v.slice(2) : v);
  const edges: LaidEdge[] = g.edges().map((ref: { v: string; w: string; name?: string }) => {
    const laid = g.edge(ref) as {
      edge: DrawableEdge;
      text?: string;
      points?: { x: number; y: number }[];
      x?: number;
      y?: number;
      width?: number;
      height?: number;
    };
    return {
      edge: laid.edge,
      source: strip(ref.v),
      target: strip(ref.w),
      points: (laid.points ?? []).map((p) => ({ x: p.x, y: p.y })),
      ...(laid.text !== undefined
        ? {
            label: {
              text: laid.text,
              x: laid.x ?? 0,
              y: laid.y ?? 0,
              width: laid.width ?? 0,
              height: laid.height ?? 0,
            },
          }
        : {}),
    };
  });
  const laidClusters: LaidCluster[] = [...clusters].map(([id, parent]) => {
    const laid = g.node(`cluster:${id}`);
    return {
      id,
      label: id,
      x: laid.x ?? 0,
      y: laid.y ?? 0,
      width: laid.width,
      height: laid.height,
      ...(parent ? { parent } : {}),
    };
  });
  const size = g.graph();
  return {
    width: Math.ceil(size.width ?? 0),
    height: Math.ceil(size.height ?? 0),
    nodes,
    joins: laidJoins,
    edges,
    clusters: laidClusters,
  };
}
