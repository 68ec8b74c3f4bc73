import { expressionFindings } from "../expressions/per-document.js";
import type { Rule } from "../rule.js";

/**
 * An expression that does not type-check in its place: no such overload, a field that does not
 * exist, a variable not in scope, or a value of the wrong type for where it is written.
 */
export const expressionType: Rule = {
  name: "expression-type",
  check(ctx) {
    for (const f of expressionFindings(ctx)) {
      if (f.rule === "expression-type") ctx.report(f.rule, f.path, f);
    }
  },
};
