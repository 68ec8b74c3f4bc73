import { START } from "../../spec/control-flow.js";
import { graphOf } from "../graph/per-document.js";
import type { Rule } from "../rule.js";

/** Some edge leaves START: without one, a run has nothing to do. */
export const missingEntry: Rule = {
  name: "missing-entry",
  check(ctx) {
    const graph = graphOf(ctx);
    if (graph.references.some((r) => r.role === "source" && r.name === START)) return;
    // Suggest the first node nothing leads to: the likely entry.
    const targeted = new Set([...graph.anyFlow.values()].flatMap((s) => [...s]));
    const entry = graph.nodes.find((n) => !targeted.has(n)) ?? graph.nodes[0] ?? "first_node";
    const hasEdges = Array.isArray(ctx.spec.edges);
    ctx.report("missing-entry", hasEdges ? ["edges"] : [], {
      message: "no edge leaves START: a run has no node to begin with",
      hint: `add \`- { from: START, to: ${entry} }\` to \`edges\``,
      at: "key",
    });
  },
};
