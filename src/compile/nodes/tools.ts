/**
 * `tools`: runs the tool calls of the last AI message in `messages` — LangGraph's prebuilt
 * `ToolNode` over the node's tools (default: every declared tool). A tool that throws, or a call
 * for a tool the node does not have, becomes an error message for the model to read.
 */
import { ToolNode } from "@langchain/langgraph/prebuilt";
import type { ToolsNode } from "../../spec/spec-types.generated.js";
import { GraphspecRunError } from "../graphspec-run-error.js";
import type { NodeKind, NodeResult } from "../node-kind.js";

export const toolsKind: NodeKind<ToolsNode> = {
  lower(name, node, ctx) {
    const names = node.tools ?? Object.keys(ctx.spec.tools ?? {});
    const toolNode = new ToolNode(names.map((n) => ctx.tool(n)));
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
