import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const unknownStateKey: Rule = {
  name: "unknown-state-key",
  check() {},
};
