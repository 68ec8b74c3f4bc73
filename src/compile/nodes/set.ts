/** `set`: a pure state update — `values` (templates) written through the channels' reducers. */
import type { SetNode } from "../../spec/spec-types.generated.js";
import type { NodeKind } from "../node-kind.js";
import { compileValue } from "../values.js";

export const setKind: NodeKind<SetNode> = {
  lower(name, node, ctx) {
    const scope = ctx.expr.scope(`the \`values\` of node \`${name}\``);
    const evaluate = compileValue(ctx.values(name), ["nodes", name, "values"], node.values, scope);
    return { callsModels: false, run: ({ vars }) => evaluate(vars) as Record<string, unknown> };
  },
};
