import { END, type GraphEdge } from "../../spec/control-flow.js";
import { deadEnds, exitlessLoops } from "../graph/loops.js";
import { graphOf, reachableOf } from "../graph/per-document.js";
import { andNames, edgeName } from "../graph/wording.js";
import type { Rule } from "../rule.js";

/** Whether a route edge has a `default` case: the one target whose place in the spec is `default`. */
const hasDefault = (route: GraphEdge): boolean =>
  route.targets.some((t) => t.path.at(-1) === "default");

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
    for (const node of deadEnds(graph, reachable)) {
      ctx.report("no-path-to-end", ["nodes", node], {
        message: `node \`${node}\` has no outgoing edge: a run that reaches it stops there without reaching END`,
        hint: `add \`- { from: ${node}, to: ${END} }\` to \`edges\`, or an edge to the node that comes next`,
        at: "key",
      });
    }
    // Nodes that reach neither END nor a reported dead end are caught in a loop.
    for (const members of exitlessLoops(graph, reachable)) {
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
          ? hasDefault(routed)
            ? `add a case to the route from \`${routed.sources[0]}\` (${edgeName(routed)}) that goes to END`
            : `add \`- { default: END }\` to the route from \`${routed.sources[0]}\` (${edgeName(routed)})`
          : "give the loop an exit: replace an edge in it with a `route` that can go to END",
        at: "key",
      });
    }
  },
};
