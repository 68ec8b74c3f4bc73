import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const toolArgs: Rule = {
  name: "tool-args",
  check() {},
};
