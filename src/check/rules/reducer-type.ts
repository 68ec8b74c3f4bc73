import { isObject } from "../../spec/data.js";
import { reducerMisfit } from "../../spec/reducer-fit.js";
import type { Rule } from "../rule.js";

/** A built-in reducer on a channel whose type it cannot combine (`sum` of strings, `merge` of lists). */
export const reducerType: Rule = {
  name: "reducer-type",
  check(ctx) {
    const fields = ctx.spec.state;
    if (!isObject(fields)) return;
    for (const [name, field] of Object.entries(fields)) {
      if (!isObject(field)) continue;
      const misfit = reducerMisfit(field);
      if (misfit)
        ctx.report("reducer-type", ["state", name, "reducer"], { ...misfit, at: "value" });
    }
  },
};
