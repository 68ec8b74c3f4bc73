import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const unknownModel: Rule = {
  name: "unknown-model",
  check() {},
};
