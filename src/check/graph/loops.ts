/**
 * Loops in the control flow: strongly connected components, and the loops no path leaves for END
 * (`no-path-to-end` reports those; `endless-loop` leaves them to it).
 */
import { END, type GraphModel, predecessors, reach } from "../../spec/control-flow.js";

/** Strongly connected components of the graph restricted to `within` (Tarjan, iterative). */
export function components(
  within: readonly string[],
  succ: ReadonlyMap<string, ReadonlySet<string>>,
): string[][] {
  const inside = new Set(within);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  for (const root of within) {
    if (index.has(root)) continue;
    const work: { node: string; next: string[] }[] = [];
    const open = (n: string) => {
      index.set(n, index.size);
      low.set(n, index.get(n)!);
      stack.push(n);
      onStack.add(n);
      work.push({ node: n, next: [...(succ.get(n) ?? [])].filter((m) => inside.has(m)) });
    };
    open(root);
    while (work.length) {
      const top = work.at(-1)!;
      const m = top.next.shift();
      if (m !== undefined) {
        if (!index.has(m)) open(m);
        else if (onStack.has(m)) low.set(top.node, Math.min(low.get(top.node)!, index.get(m)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) === index.get(top.node)) {
        const scc: string[] = [];
        for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
          onStack.delete(n);
          scc.push(n);
          if (n === top.node) break;
        }
        out.push(scc);
      }
    }
  }
  return out;
}

/** Nodes a run can reach that have no outgoing edge: a run that gets there stops. */
export function deadEnds(graph: GraphModel, reachable: ReadonlySet<string>): string[] {
  return graph.nodes.filter((n) => reachable.has(n) && !graph.flow.has(n));
}

/**
 * The loops of reachable nodes from which no path (of successful runs: `flow`, not
 * `on_error.goto`) reaches END or a dead end — only those at the bottom, since nodes leading into
 * them are stuck because of them. Each loop's members are in file order.
 */
export function exitlessLoops(graph: GraphModel, reachable: ReadonlySet<string>): string[][] {
  const live = graph.nodes.filter((n) => reachable.has(n));
  const exits = reach([END, ...deadEnds(graph, reachable)], predecessors(graph.flow));
  const trapped = live.filter((n) => !exits.has(n));
  const order = new Map(graph.nodes.map((n, i) => [n, i]));
  const sccs = components(trapped, graph.flow);
  const sccOf = new Map(sccs.flatMap((c, i) => c.map((n) => [n, i] as const)));
  return sccs
    .filter((scc, i) =>
      // A trapped node has edges: one without is a dead end, an exit.
      scc.every((n) => [...graph.flow.get(n)!].every((m) => sccOf.get(m) === i)),
    )
    .map((scc) => scc.sort((a, b) => order.get(a)! - order.get(b)!));
}
