import { expressionFindings } from "../expressions/per-document.js";
import type { Rule } from "../rule.js";

/**
 * A write its channel's declared type would take but its built-in reducer refuses: a number into
 * `merge` or a string into `sum` on an `any` channel, a map without `role` and `content` into
 * `messages`. Found with the other writes (expressions/reducer-writes.ts).
 */
export const reducerWrite: Rule = {
  name: "reducer-write",
  check(ctx) {
    for (const f of expressionFindings(ctx)) {
      if (f.rule === "reducer-write") ctx.report(f.rule, f.path, f);
    }
  },
};
