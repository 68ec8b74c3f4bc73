import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const missingEntry: Rule = {
  name: "missing-entry",
  check() {},
};
