import type { Rule } from "../rule.js";

// TODO(graphspec): not implemented yet.
export const subgraphCycle: Rule = {
  name: "subgraph-cycle",
  check() {},
};
