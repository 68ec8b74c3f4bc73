/**
 * `tools`: runs the tool calls of the last AI message in `messages` — LangGraph's prebuilt
 * `ToolNode` over the node's tools (default: every declared tool). A tool that throws, a call for
 * a tool the node does not have, and a call the run's tool allowlist does not name
 * (tool-policy.ts) become error messages for the model to read.
 */
import type { ToolCall } from "@langchain/core/messages/tool";
import type { Command, LangGraphRunnableConfig } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import type { ToolsNode } from "../../spec/spec-types.generated.js";
import { GraphspecRunError } from "../graphspec-run-error.js";
import type { NodeKind, NodeResult } from "../node-kind.js";
import { policyDenial } from "../tool-policy.js";

/** LangGraph's ToolNode, with the run's tool allowlist checked before each call runs. */
class PolicyToolNode extends ToolNode {
  protected override async runTool(
    call: ToolCall,
    config: LangGraphRunnableConfig,
    state: unknown,
  ): Promise<import("@langchain/core/messages").ToolMessage | Command> {
    return (
      (await policyDenial(call, config.configurable, config)) ?? super.runTool(call, config, state)
    );
  }
}

export const toolsKind: NodeKind<ToolsNode> = {
  lower(name, node, ctx) {
    const names = node.tools ?? Object.keys(ctx.spec.tools ?? {});
    const toolNode = new PolicyToolNode(names.map((n) => ctx.tool(n)));
    return {
      run: async ({ state, config }) => {
        const out = await toolNode.invoke(state, config);
        if (Array.isArray(out)) {
          throw new GraphspecRunError(
            "tool-error",
            `node \`${name}\`: a tool returned a LangGraph Command, which a \`tools\` node does not pass on`,
            {
              node: name,
              hint: "return the tool's result as text or JSON; change the graph's flow with edges",
            },
          );
        }
        return out as NodeResult;
      },
    };
  },
};
