import { expressionFindings } from "../expressions/per-document.js";
import type { Rule } from "../rule.js";

/** A CEL expression or `${{ }}` template that does not parse. */
export const expressionSyntax: Rule = {
  name: "expression-syntax",
  check(ctx) {
    for (const f of expressionFindings(ctx)) {
      if (f.rule === "expression-syntax") ctx.report(f.rule, f.path, f);
    }
  },
};
