import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const unknownModule: Rule = {
  name: "unknown-module",
  check() {},
};
