import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const routeNoDefault: Rule = {
  name: "route-no-default",
  check() {},
};
