import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const parallelWrite: Rule = {
  name: "parallel-write",
  check() {},
};
