import { listNames, suggest } from "../../diagnostics/suggest.js";
import { END, type RefRole, START } from "../../spec/control-flow.js";
import { graphOf } from "../graph/per-document.js";
import type { Rule } from "../rule.js";

/** Why START or END may not stand where it does; undefined where it may. */
function misuse(name: typeof START | typeof END, role: RefRole): string | undefined {
  if (name === START) {
    switch (role) {
      case "source":
        return undefined;
      case "join-source":
        return "START cannot be part of a join: a join waits for nodes to finish";
      case "target":
      case "map-target":
        return "START cannot be an edge target: a run begins there once";
      case "goto":
        return "START cannot be an `on_error.goto` target: a run begins there once";
      case "interrupt":
        return "START is not a node: interrupts pause before or after nodes";
    }
  }
  switch (role) {
    case "target":
    case "goto":
      return undefined;
    case "source":
    case "join-source":
      return "END cannot be an edge source: a run that reaches END is over";
    case "map-target":
      return "END cannot be a map target: a map sends each item to a node";
    case "interrupt":
      return "END is not a node: interrupts pause before or after nodes";
  }
}

const MISUSE_HINT: Record<RefRole, string> = {
  source: "start the edge at a node, or at START",
  "join-source": "write `from: START` in an edge of its own",
  target: "to run the first node again, target it by name",
  "map-target": "map to a node, and add an edge from that node to END",
  goto: "go to a node, or END",
  interrupt: "name the node to pause at",
};

/** LangGraph's own ids for START and END: not how a spec writes them. */
const INTERNAL_IDS = new Map<string, string>([
  ["__start__", START],
  ["__end__", END],
]);

/** Every node reference names a node; START only where a run can begin, END only where it can end. */
export const unknownNode: Rule = {
  name: "unknown-node",
  check(ctx) {
    const graph = graphOf(ctx);
    for (const ref of graph.references) {
      if (graph.nodeSet.has(ref.name)) continue;
      if (ref.name === START || ref.name === END) {
        const message = misuse(ref.name, ref.role);
        if (message) ctx.report("unknown-node", ref.path, { message, hint: MISUSE_HINT[ref.role] });
        continue;
      }
      const keywords =
        ref.role === "source" ? [START] : ref.role === "target" || ref.role === "goto" ? [END] : [];
      const internal = INTERNAL_IDS.get(ref.name);
      ctx.report("unknown-node", ref.path, {
        message: `unknown node \`${ref.name}\``,
        hint:
          (internal && keywords.includes(internal)
            ? { hint: `write \`${internal}\``, replacement: internal }
            : undefined) ??
          suggest(ref.name, [...graph.nodes, ...keywords]) ??
          (graph.nodes.length
            ? `expected ${listNames([...graph.nodes, ...keywords])}`
            : "declare it under `nodes`"),
      });
    }
  },
};
