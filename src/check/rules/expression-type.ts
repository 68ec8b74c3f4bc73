import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const expressionType: Rule = {
  name: "expression-type",
  check() {},
};
