import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const interruptSchema: Rule = {
  name: "interrupt-schema",
  check() {},
};
