import { isObject } from "../../spec/data.js";
import { andNames } from "../graph/wording.js";
import type { Rule } from "../rule.js";

const describeFrom = (from: unknown): string =>
  typeof from === "string"
    ? `\`${from}\``
    : Array.isArray(from)
      ? `the join of ${andNames(from.map(String))}`
      : "this edge";

/** A route that can match nothing: the run fails with "no route matched" at that point. */
export const routeNoDefault: Rule = {
  name: "route-no-default",
  check(ctx) {
    const edges = Array.isArray(ctx.spec.edges) ? ctx.spec.edges : [];
    for (const [i, edge] of edges.entries()) {
      if (!isObject(edge) || !Array.isArray(edge.route)) continue;
      const cases = edge.route.filter(isObject);
      // `when: true` is a default in all but name.
      if (
        cases.some(
          (c) => "default" in c || (typeof c.when === "string" && c.when.trim() === "true"),
        )
      )
        continue;
      ctx.report("route-no-default", ["edges", i, "route"], {
        message: `the route from ${describeFrom(edge.from)} has no \`default\` case: a state that matches no \`when\` fails the run`,
        hint: "add `- { default: END }` (or a node) as the last case",
        at: "key",
      });
    }
  },
};
