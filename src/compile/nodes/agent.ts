/** `agent`: not lowered yet (issue 3 in progress). */
import type { AgentNode } from "../../spec/spec-types.js";
import { CompileError } from "../errors.js";
import type { NodeKind } from "../node.js";

export const agentKind: NodeKind<AgentNode> = {
  lower(name) {
    throw new CompileError(`node \`${name}\`: the \`agent\` kind cannot be compiled yet`);
  },
};
