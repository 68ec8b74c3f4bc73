import { isObject } from "../../spec/data.js";
import type { Rule } from "../rule.js";

/** A node named like a state channel: LangGraph's addNode throws, as both share one namespace. */
export const nameCollision: Rule = {
  name: "name-collision",
  check(ctx) {
    const nodes = isObject(ctx.spec.nodes) ? ctx.spec.nodes : {};
    const state = isObject(ctx.spec.state) ? ctx.spec.state : {};
    for (const name of Object.keys(nodes)) {
      if (!Object.hasOwn(state, name)) continue;
      ctx.report("name-collision", ["nodes", name], {
        message: `node \`${name}\` has the same name as the state channel \`${name}\`: nodes and channels share one namespace in LangGraph`,
        hint: `rename the node, e.g. \`set_${name}\`, and the edges that name it`,
        at: "key",
      });
    }
  },
};
