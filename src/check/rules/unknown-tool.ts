import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const unknownTool: Rule = {
  name: "unknown-tool",
  check() {},
};
