/** `llm`: not lowered yet (issue 3 in progress). */
import type { LlmNode } from "../../spec/spec-types.js";
import { CompileError } from "../errors.js";
import type { NodeKind } from "../node.js";

export const llmKind: NodeKind<LlmNode> = {
  lower(name) {
    throw new CompileError(`node \`${name}\`: the \`llm\` kind cannot be compiled yet`);
  },
};
