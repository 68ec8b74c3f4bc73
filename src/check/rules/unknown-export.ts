import { reportRefProblems } from "../module-refs.js";
import type { Rule } from "../rule.js";

/** A module lacks the named export, or the export is not the function or tool the spec needs. */
export const unknownExport: Rule = {
  name: "unknown-export",
  check: (ctx) => reportRefProblems(ctx, "unknown-export"),
};
