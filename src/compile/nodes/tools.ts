/** `tools`: not lowered yet (issue 3 in progress). */
import type { ToolsNode } from "../../spec/spec-types.js";
import { CompileError } from "../errors.js";
import type { NodeKind } from "../node.js";

export const toolsKind: NodeKind<ToolsNode> = {
  lower(name) {
    throw new CompileError(`node \`${name}\`: the \`tools\` kind cannot be compiled yet`);
  },
};
