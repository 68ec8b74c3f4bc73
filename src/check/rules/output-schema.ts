import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const outputSchema: Rule = {
  name: "output-schema",
  check() {},
};
