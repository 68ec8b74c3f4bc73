import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const pathEscape: Rule = {
  name: "path-escape",
  check() {},
};
