import { expressionFindings } from "../expressions/per-document.js";
import type { Rule } from "../rule.js";

/**
 * A CEL map literal with the key `__proto__`, `constructor` or `prototype`. The loader reports
 * such keys in the spec's own data (spec/load.ts); this rule reports them inside expressions.
 */
export const unsafeKey: Rule = {
  name: "unsafe-key",
  check(ctx) {
    for (const f of expressionFindings(ctx)) {
      if (f.rule === "unsafe-key") ctx.report(f.rule, f.path, f);
    }
  },
};
