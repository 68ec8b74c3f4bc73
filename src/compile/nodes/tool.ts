/** `tool`: not lowered yet (issue 3 in progress). */
import type { ToolNode } from "../../spec/spec-types.js";
import { CompileError } from "../errors.js";
import type { NodeKind } from "../node.js";

export const toolKind: NodeKind<ToolNode> = {
  lower(name) {
    throw new CompileError(`node \`${name}\`: the \`tool\` kind cannot be compiled yet`);
  },
};
