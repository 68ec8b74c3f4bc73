import { reportRefProblems } from "../module-refs.js";
import type { Rule } from "../rule.js";

/** A module or graph path names no file, a file of the wrong kind, or a module that throws when loaded. */
export const unknownModule: Rule = {
  name: "unknown-module",
  check: (ctx) => reportRefProblems(ctx, "unknown-module"),
};
