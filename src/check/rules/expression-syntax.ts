import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const expressionSyntax: Rule = {
  name: "expression-syntax",
  check() {},
};
