import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const nameCollision: Rule = {
  name: "name-collision",
  check() {},
};
