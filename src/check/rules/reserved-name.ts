import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const reservedName: Rule = {
  name: "reserved-name",
  check() {},
};
