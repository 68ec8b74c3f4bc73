/**
 * A drawing with some of its subgraph nodes expanded in place: each expanded node replaced by its
 * child's nodes and edges taken from the xray drawing (ids `parent:child`), the edges into and out
 * of it rerouted to the child's `__start__` and `__end__` — what the server does for all of them
 * with `?xray`, done here for the ones the person opened.
 */
import type { DrawableEdge, DrawableGraph } from "./drawable.js";

export function expandSubgraphs(
  base: DrawableGraph,
  xray: DrawableGraph,
  open: ReadonlySet<string>,
): DrawableGraph {
  const opened = base.nodes
    .filter((n) => open.has(n.id) && xray.nodes.some((x) => x.id.startsWith(`${n.id}:`)))
    .map((n) => n.id);
  if (!opened.length) return base;
  const isOpened = new Set(opened);
  const inside = (id: string) => opened.some((o) => id.startsWith(`${o}:`));
  const from = (id: string) => (isOpened.has(id) ? `${id}:__end__` : id);
  const to = (id: string) => (isOpened.has(id) ? `${id}:__start__` : id);
  const nodes = base.nodes.flatMap((n) =>
    isOpened.has(n.id) ? xray.nodes.filter((x) => x.id.startsWith(`${n.id}:`)) : [n],
  );
  const edges: DrawableEdge[] = [
    ...base.edges.map((e) => ({
      ...e,
      source: from(e.source),
      target: to(e.target),
      ...(e.join ? { join: e.join.map(from) } : {}),
      ...(e.parallel ? { parallel: e.parallel.map(to) } : {}),
    })),
    ...xray.edges.filter((e) => inside(e.source) && inside(e.target)),
  ];
  return { nodes, edges };
}
