import { closest } from "../../diagnostics/suggest.js";
import {
  END,
  type GraphModel,
  predecessors,
  reach,
  reachedFromStart,
  START,
} from "../../spec/control-flow.js";
import { graphOf, reachableOf, stepsOf } from "../graph/per-document.js";
import { andNames, edgeName } from "../graph/wording.js";
import type { Rule } from "../rule.js";

/** Why a node that START's edges lead to never runs: a join that cannot complete, upstream. */
function neverRuns(
  graph: GraphModel,
  node: string,
  ran: ReadonlySet<string>,
  firedJoins: ReadonlySet<number>,
): string {
  const join = graph.edges.find(
    (e) =>
      e.sources.length > 1 && !firedJoins.has(e.index) && e.targets.some((t) => t.name === node),
  );
  if (join) {
    const all = join.sources.length === 2 ? "both" : "all";
    return `node \`${node}\` can never run: the join at ${edgeName(join)} waits until ${andNames(join.sources)} have ${all} run, and no run reaches ${all === "both" ? "both" : "all of them"}`;
  }
  const from = [...(predecessors(graph.anyFlow).get(node) ?? [])].find((p) => !ran.has(p));
  return from
    ? `node \`${node}\` can never run: it is only reached from \`${from}\`, which can never run`
    : `node \`${node}\` can never run`;
}

/** A node no run can get to: dead code, or a missing edge. */
export const unreachableNode: Rule = {
  name: "unreachable-node",
  check(ctx) {
    const graph = graphOf(ctx);
    // Without an entry everything is unreachable: missing-entry says it once.
    if (!graph.references.some((r) => r.role === "source" && r.name === START)) return;
    // Compile leaves out exactly the nodes of the first case (spec/control-flow.ts).
    const reached = reachedFromStart(graph);
    const reachable = reachableOf(ctx);
    // Nodes a misspelled reference probably meant, and targets of edges from a misspelled
    // node, may be reachable once the name is fixed: unknown-node speaks for them.
    // Once per distinct name: each look-up measures the name against every node. START and END
    // are no misspelling: `send` is one edit from END, not a node END meant.
    const unknown = new Set(
      graph.references
        .map((r) => r.name)
        .filter((n) => !graph.nodeSet.has(n) && n !== START && n !== END),
    );
    const meant = [...unknown]
      .map((name) => closest(name, graph.nodes))
      .filter((n): n is string => n !== undefined);
    const unsure = reach([...graph.orphanTargets, ...meant], graph.anyFlow);
    const pred = predecessors(graph.anyFlow);
    for (const node of graph.nodes) {
      if (unsure.has(node)) continue;
      if (reachable.has(node) && !reached.has(node)) {
        // START's edges lead to it only through a join one of whose sources nothing reaches.
        ctx.report("unreachable-node", ["nodes", node], {
          message: neverRuns(graph, node, reached, new Set()),
          hint: "give the node an edge of its own from a node that runs, or remove it",
          at: "key",
        });
        continue;
      }
      if (!reachable.has(node)) {
        const from = [...(pred.get(node) ?? [])].filter((p) => p !== node);
        ctx.report("unreachable-node", ["nodes", node], {
          message: from.length
            ? `node \`${node}\` is unreachable: only ${andNames(from)} ${from.length === 1 ? "leads" : "lead"} to it, and no path from START reaches ${from.length === 1 ? "it" : "them"}`
            : `node \`${node}\` is unreachable: no edge leads to it`,
          hint: from.length
            ? undefined
            : `add an edge to it (e.g. \`- { from: ${START}, to: ${node} }\`), or remove the node`,
          at: "key",
        });
        continue;
      }
      const steps = stepsOf(ctx);
      if (steps.exact && !steps.ran.has(node)) {
        const message = neverRuns(graph, node, steps.ran, steps.firedJoins);
        ctx.report("unreachable-node", ["nodes", node], {
          message,
          hint: message.includes("join")
            ? "if only some of them run, give each its own edge to the node instead of a join"
            : undefined,
          at: "key",
        });
      }
    }
  },
};
