import { isObject } from "../../spec/data.js";
import type { Rule } from "../rule.js";

/**
 * Route cases are tried in order and `default` always matches, so a case after a `default`
 * can never be chosen: almost always a case added in the wrong place.
 */
export const routeDefaultLast: Rule = {
  name: "route-default-last",
  check(ctx) {
    const edges = Array.isArray(ctx.spec.edges) ? ctx.spec.edges : [];
    for (const [i, edge] of edges.entries()) {
      if (!isObject(edge) || !Array.isArray(edge.route)) continue;
      const route: unknown[] = edge.route;
      const first = route.findIndex((c) => isObject(c) && "default" in c);
      if (first < 0 || first === route.length - 1) continue;
      for (let j = first + 1; j < route.length; j++) {
        const c = route[j];
        const isDefault = isObject(c) && "default" in c;
        ctx.report("route-default-last", ["edges", i, "route", j], {
          message: isDefault
            ? `a second \`default\` in this route: only the first one (case ${first + 1}) is ever used`
            : `case ${j + 1} comes after the \`default\` (case ${first + 1}), so it can never be chosen`,
          hint: isDefault
            ? "remove one of them"
            : "move the `default` case to the end of the route",
        });
      }
    }
  },
};
