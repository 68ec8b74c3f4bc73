/**
 * `function`: a function of the user's, `(state, runtime) => update`, where `runtime` is
 * LangGraph's (its `context` is the run's context with defaults filled in). With `writes`, a key
 * outside the list is a run-time error.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { FunctionNode } from "../../spec/spec-types.js";
import type { NodeKind, NodeResult } from "../node.js";

type UserNode = (state: Record<string, unknown>, runtime: LangGraphRunnableConfig) => unknown;

export const functionKind: NodeKind<FunctionNode> = {
  lower(name, node, ctx) {
    const fn = ctx.moduleExport(["nodes", name, "module"]).value as UserNode;
    return {
      ...(node.writes ? { writes: node.writes } : {}),
      run: async ({ state, context, config }) =>
        (await fn(state, { ...config, context })) as NodeResult,
    };
  },
};
