/** `subgraph`: not lowered yet (issue 3 in progress). */
import type { SubgraphNode } from "../../spec/spec-types.js";
import { CompileError } from "../errors.js";
import type { NodeKind } from "../node.js";

export const subgraphKind: NodeKind<SubgraphNode> = {
  lower(name) {
    throw new CompileError(`node \`${name}\`: the \`subgraph\` kind cannot be compiled yet`);
  },
};
