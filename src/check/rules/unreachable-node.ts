import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const unreachableNode: Rule = {
  name: "unreachable-node",
  check() {},
};
