/**
 * `function`: a function of the user's, `(state, runtime) => update`, where `runtime` is
 * LangGraph's (its `context` is the run's context with defaults filled in). With `writes`, a key
 * outside the list is a run-time error.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { FunctionNode } from "../../spec/spec-types.generated.js";
import type { NodeKind, NodeResult } from "../node-kind.js";

type UserNode = (state: Record<string, unknown>, runtime: LangGraphRunnableConfig) => unknown;

const unchanged = (context: Record<string, unknown>, config: LangGraphRunnableConfig) =>
  context === config.context || (config.context === undefined && Object.keys(context).length === 0);

export const functionKind: NodeKind<FunctionNode> = {
  lower(name, node, ctx) {
    const fn = ctx.moduleExport(["nodes", name, "module"]).value as UserNode;
    return {
      ...(node.writes ? { writes: node.writes } : {}),
      userCode: true,
      // LangGraph's runtime, with the resolved context (defaults filled in) when it differs.
      run: async ({ state, context, config }) =>
        (await fn(
          state,
          unchanged(context, config) ? config : { ...config, context },
        )) as NodeResult,
    };
  },
};
