import { END, reach } from "../../spec/control-flow.js";
import { graphOf, reachableOf } from "../graph/per-document.js";
import { andNames, edgeName } from "../graph/wording.js";
import type { Rule } from "../rule.js";

/** Whether the route of `edges[index]` has a `default` case. */
const hasDefault = (edges: unknown, index: number): boolean => {
  const route = Array.isArray(edges) ? (edges[index] as { route?: unknown })?.route : undefined;
  return Array.isArray(route) && route.some((c) => typeof c === "object" && c && "default" in c);
};

/** Strongly connected components of the graph restricted to `within` (Tarjan, iterative). */
function components(
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

/**
 * Every node a run can reach has a way on to END. Two ways to fail: a node with no outgoing
 * edge (LangGraph would quietly end that branch; the spec language wants ends said out loud),
 * and a loop with no exit (it runs until the recursion limit). Error handlers (`on_error.goto`)
 * make nodes reachable, but do not count as a way out: a loop should not need a failure to end.
 */
export const noPathToEnd: Rule = {
  name: "no-path-to-end",
  check(ctx) {
    const graph = graphOf(ctx);
    const reachable = reachableOf(ctx);
    const live = graph.nodes.filter((n) => reachable.has(n));
    const deadEnds = live.filter((n) => !graph.flow.has(n));
    for (const node of deadEnds) {
      ctx.report("no-path-to-end", ["nodes", node], {
        message: `node \`${node}\` has no outgoing edge: a run that reaches it stops there without reaching END`,
        hint: `add \`- { from: ${node}, to: ${END} }\` to \`edges\`, or an edge to the node that comes next`,
        at: "key",
      });
    }
    // Nodes that reach neither END nor a reported dead end are caught in a loop.
    const back = new Map<string, Set<string>>();
    for (const [from, tos] of graph.flow)
      for (const to of tos) back.set(to, (back.get(to) ?? new Set()).add(from));
    const exits = reach([END, ...deadEnds], back);
    const trapped = live.filter((n) => !exits.has(n));
    if (trapped.length === 0) return;
    const order = new Map(graph.nodes.map((n, i) => [n, i]));
    const sccs = components(trapped, graph.flow);
    const sccOf = new Map(sccs.flatMap((c, i) => c.map((n) => [n, i] as const)));
    for (const [i, scc] of sccs.entries()) {
      // Only the loops at the bottom: nodes leading into them are stuck because of them.
      const leaves = scc.some((n) =>
        [...(graph.flow.get(n) ?? [])].some((m) => sccOf.get(m) !== i),
      );
      if (leaves) continue;
      const members = scc.sort((a, b) => order.get(a)! - order.get(b)!);
      const first = members[0]!;
      const routed = graph.edges.find(
        (e) => e.kind === "route" && e.sources.length === 1 && members.includes(e.sources[0]!),
      );
      ctx.report("no-path-to-end", ["nodes", first], {
        message:
          members.length === 1
            ? `node \`${first}\` loops back to itself with no way out: no path from it reaches END, so a run that gets here stops only at the recursion limit`
            : `nodes ${andNames(members)} form a loop with no way out: no path from them reaches END, so a run that gets here stops only at the recursion limit`,
        hint: routed
          ? hasDefault(ctx.spec.edges, routed.index)
            ? `add a case to the route from \`${routed.sources[0]}\` (${edgeName(routed)}) that goes to END`
            : `add \`- { default: END }\` to the route from \`${routed.sources[0]}\` (${edgeName(routed)})`
          : "give the loop an exit: replace an edge in it with a `route` that can go to END",
        at: "key",
      });
    }
  },
};
