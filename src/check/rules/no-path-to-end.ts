import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const noPathToEnd: Rule = {
  name: "no-path-to-end",
  check() {},
};
