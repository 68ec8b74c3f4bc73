import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const unknownExport: Rule = {
  name: "unknown-export",
  check() {},
};
