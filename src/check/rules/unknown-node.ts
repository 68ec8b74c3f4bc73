import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const unknownNode: Rule = {
  name: "unknown-node",
  check() {},
};
