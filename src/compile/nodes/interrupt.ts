/** `interrupt`: not lowered yet (issue 3 in progress). */
import type { InterruptNode } from "../../spec/spec-types.js";
import { CompileError } from "../errors.js";
import type { NodeKind } from "../node.js";

export const interruptKind: NodeKind<InterruptNode> = {
  lower(name) {
    throw new CompileError(`node \`${name}\`: the \`interrupt\` kind cannot be compiled yet`);
  },
};
