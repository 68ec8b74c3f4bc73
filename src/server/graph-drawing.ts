/**
 * `GET /assistants/{id}/graph`: a graph's nodes and edges as the LangGraph server draws them
 * (`__start__` … `__end__`, `conditional` edges labelled by `data`), read from the spec rather than
 * from the compiled graph so that nothing is lost on the way: each node's kind, description,
 * breakpoints and pause points in its `metadata`; each edge's condition, router, map list, join and
 * fan-out in keys of its own (src/draw/drawable.ts; docs/server.md "The drawing"). With `xray`,
 * subgraph nodes are replaced by their child's nodes, ids prefixed `parent:child` as LangGraph does.
 */
import { dirname } from "node:path";
import {
  type DrawableEdge,
  type DrawableGraph,
  type DrawableNode,
  END_ID,
  type NodeDetails,
  START_ID,
} from "../draw/drawable.js";
import { resolveGraphRef } from "../modules/index.js";
import { buildGraph, reachedFromStart } from "../spec/control-flow.js";
import { loadSpec } from "../spec/load.js";
import { findProjectRoot } from "../spec/project-root.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";

/** How deep xray goes when asked for "all": deeper nesting than this is a cycle, not a design. */
const XRAY_ALL = 16;
/**
 * The most nodes an xray drawing holds: a spec mounting ten subgraphs that each mount ten more
 * would otherwise ask for 10^16 of them. Past it, subgraph nodes stay unexpanded.
 */
export const XRAY_MAX_NODES = 2000;

/** `?xray=` as the SDK sends it: `true` (all levels), a depth, or nothing (none). */
export function xrayDepth(query: string | undefined): number {
  if (query === undefined || query === "" || query === "false" || query === "0") return 0;
  if (query === "true") return XRAY_ALL;
  const n = Number(query);
  return Number.isInteger(n) && n > 0 ? Math.min(n, XRAY_ALL) : 0;
}

const list = (v: unknown): string[] =>
  v === undefined ? [] : [v].flat().filter((s): s is string => typeof s === "string");

type SpecNode = NonNullable<GraphSpec["nodes"]>[string] & Record<string, unknown>;

function detailsOf(name: string, node: SpecNode, spec: GraphSpec, reached: Set<string>) {
  const interrupt = (["before", "after"] as const).filter((w) =>
    (spec.interrupts?.[w] ?? []).includes(name),
  );
  const approve = node.kind === "agent" ? list(node.approve) : [];
  const details: NodeDetails = {
    kind: node.kind,
    ...(typeof node.description === "string" ? { description: node.description } : {}),
    ...(interrupt.length ? { interrupt } : {}),
    ...(node.kind === "interrupt" || approve.length ? { pauses: true } : {}),
    ...(approve.length ? { approve } : {}),
    ...(node.kind === "subgraph" && typeof node.graph === "string" ? { subgraph: node.graph } : {}),
    ...(reached.has(name) ? {} : { unreachable: true as const }),
  };
  return details;
}

/** The spec's edges as drawable edges, between the spec's own names (START/END as `__start__`/`__end__`). */
function edgesOf(spec: GraphSpec): DrawableEdge[] {
  const id = (n: string) => (n === "START" ? START_ID : n === "END" ? END_ID : n);
  const edges: DrawableEdge[] = [];
  for (const e of spec.edges ?? []) {
    const sources = list(e.from);
    const join = Array.isArray(e.from) && sources.length > 1 ? { join: sources.map(id) } : {};
    const out: Omit<DrawableEdge, "source">[] = [];
    const targets = list(e.to);
    for (const to of targets)
      out.push({
        target: id(to),
        conditional: false,
        kind: "static",
        ...(targets.length > 1 ? { parallel: targets.map(id) } : {}),
      });
    for (const c of e.route ?? []) {
      if (typeof c.to === "string" && typeof c.when === "string")
        out.push({
          target: id(c.to),
          conditional: true,
          kind: "route",
          data: c.when,
          when: c.when,
        });
      else if (typeof c.default === "string")
        out.push({
          target: id(c.default),
          conditional: true,
          kind: "route",
          data: "default",
          default: true,
        });
    }
    if (e.router) {
      const name = `${e.router.module}#${e.router.export ?? "default"}`;
      for (const to of list(e.router.to))
        out.push({ target: id(to), conditional: true, kind: "router", data: name, router: name });
    }
    if (e.map && typeof e.map.to === "string")
      out.push({
        target: id(e.map.to),
        conditional: true,
        kind: "map",
        data: `map ${e.map.over}`,
        send: true,
        over: e.map.over,
      });
    for (const from of sources)
      for (const o of out) edges.push({ source: id(from), ...o, ...join });
  }
  for (const [name, node] of Object.entries(spec.nodes ?? {})) {
    const goto = (node as SpecNode).on_error?.goto;
    if (typeof goto === "string")
      edges.push({
        source: name,
        target: id(goto),
        conditional: true,
        kind: "on_error",
        data: "on error",
      });
  }
  return edges;
}

const startEnd = (prefix: string, parent: string | undefined): DrawableNode[] =>
  [START_ID, END_ID].map((n) => ({
    id: prefix + n,
    type: "schema" as const,
    data: prefix + n,
    metadata: {
      kind: n === START_ID ? "start" : "end",
      ...(parent !== undefined ? { parent } : {}),
    },
  }));

/**
 * The drawing of the spec at `path`, its ids prefixed by `prefix` (xray: `parent:`), subgraphs
 * expanded `depth` levels down. A child that does not load, or lies outside the project `root`,
 * stays a subgraph node.
 */
interface XrayWalk {
  root: string;
  /** Nodes in the drawing so far, all levels, counted as a spec is opened: at most XRAY_MAX_NODES. */
  drawn: number;
  /** Child specs read in this walk, by file: one mounted many times is read once. */
  specs: Map<string, Promise<GraphSpec | undefined>>;
}

async function drawSpec(
  spec: GraphSpec,
  path: string,
  walk: XrayWalk,
  depth: number,
  parent: string | undefined,
  /** The spec files of the subgraphs this one is inside: one that mounts itself is not opened again. */
  within: readonly string[] = [path],
): Promise<DrawableGraph> {
  const root = walk.root;
  const prefix = parent === undefined ? "" : `${parent}:`;
  const reached = reachedFromStart(buildGraph(spec));
  const [start, end] = startEnd(prefix, parent);
  const nodes: DrawableNode[] = [start!];
  // A subgraph node drawn as its child: edges into it go to the child's start, edges out of it leave its end.
  const expanded = new Map<string, { start: string; end: string }>();
  const inner: DrawableEdge[] = [];
  for (const [name, raw] of Object.entries(spec.nodes ?? {})) {
    const node = raw as SpecNode;
    const full = prefix + name;
    const metadata = {
      ...detailsOf(name, node, spec, reached),
      ...(parent !== undefined ? { parent } : {}),
    };
    if (
      depth > 0 &&
      node.kind === "subgraph" &&
      typeof node.graph === "string" &&
      walk.drawn < XRAY_MAX_NODES
    ) {
      // As compile resolves it: a path that leaves the project (path-escape) is not read.
      const childPath = (
        await resolveGraphRef(
          { specPath: path, root },
          { node: name, graph: node.graph, path: ["nodes", name, "graph"] },
        )
      ).abs;
      if (childPath && !walk.specs.has(childPath))
        walk.specs.set(
          childPath,
          loadSpec(childPath, { root }).then(
            (doc) => doc.data as GraphSpec,
            () => undefined,
          ),
        );
      const child = childPath ? await walk.specs.get(childPath) : undefined;
      const nodeCount = Object.keys(child?.nodes ?? {}).length;
      if (
        child &&
        childPath &&
        !within.includes(childPath) &&
        // The subgraph node gives way to its child's nodes, START and END.
        walk.drawn + nodeCount + 1 <= XRAY_MAX_NODES
      ) {
        walk.drawn += nodeCount + 1;
        const drawn = await drawSpec(child, childPath, walk, depth - 1, full, [
          ...within,
          childPath,
        ]);
        nodes.push(...drawn.nodes);
        inner.push(...drawn.edges);
        expanded.set(full, { start: `${full}:${START_ID}`, end: `${full}:${END_ID}` });
        continue;
      }
    }
    nodes.push({ id: full, type: "runnable", data: { id: full, name: full }, metadata });
  }
  nodes.push(end!);
  const from = (n: string) => expanded.get(prefix + n)?.end ?? prefix + n;
  const to = (n: string) => expanded.get(prefix + n)?.start ?? prefix + n;
  const edges = edgesOf(spec).map((e) => ({
    ...e,
    source: from(e.source),
    target: to(e.target),
    ...(e.join ? { join: e.join.map(from) } : {}),
    ...(e.parallel ? { parallel: e.parallel.map(to) } : {}),
  }));
  return { nodes, edges: [...edges, ...inner] };
}

export interface DrawableSource {
  /** The spec file: subgraph paths are relative to it. */
  path: string;
  spec: GraphSpec;
}

/** The graph's drawing; `xray` levels of subgraphs expanded (0: none). */
export function graphDrawing(g: DrawableSource, xray = 0): Promise<DrawableGraph> {
  const drawn = Object.keys(g.spec.nodes ?? {}).length + 2;
  const walk = { root: findProjectRoot(dirname(g.path)), drawn, specs: new Map() };
  return drawSpec(g.spec, g.path, walk, xray, undefined);
}
