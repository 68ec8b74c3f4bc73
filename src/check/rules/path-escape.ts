import { reportRefProblems } from "../module-refs.js";
import type { Rule } from "../rule.js";

/** A module or graph path leaves the project root (lexically, or through a symbolic link). */
export const pathEscape: Rule = {
  name: "path-escape",
  check: (ctx) => reportRefProblems(ctx, "path-escape"),
};
