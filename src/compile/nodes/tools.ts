/**
 * `tools`: runs the tool calls of the last AI message in `messages` — LangGraph's prebuilt
 * `ToolNode` over the node's tools (default: every declared tool, and MCP servers' tools). A tool
 * that throws, a call for a tool the node does not have, and a call the run's tool allowlist does not name
 * (tool-policy.ts) become error messages for the model to read. A tool that returns a Command
 * updates the state through it, as in LangGraph. When the last message is not an AI message there
 * is nothing to run, and the node writes nothing.
 */

import { type AIMessage, isAIMessage, ToolMessage } from "@langchain/core/messages";
import type { ToolCall } from "@langchain/core/messages/tool";
import {
  type Command,
  isCommand,
  isGraphInterrupt,
  type LangGraphRunnableConfig,
} from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import type { ToolsNode } from "../../spec/spec-types.generated.js";
import { failsRun } from "../fails-run.js";
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
    const denial = await policyDenial(call, config.configurable, config);
    if (denial) return denial;
    try {
      return await super.runTool(call, config, state);
    } catch (e) {
      // LangGraph's own handling (handleToolErrors), but for the errors that fail the run.
      if (isGraphInterrupt(e) || failsRun(e)) throw e;
      return new ToolMessage({
        status: "error",
        content: `Error: ${(e as Error)?.message ?? e}\n Please fix your mistakes.`,
        name: call.name,
        tool_call_id: call.id ?? "",
      });
    }
  }
}

/** The ids of the tool calls a list of updates and commands answers with tool messages. */
function answeredCalls(outputs: readonly unknown[]): Set<string> {
  const ids = new Set<string>();
  for (const out of outputs) {
    const update = isCommand(out) ? out.update : out;
    const entries = Array.isArray(update) ? update : Object.entries(update ?? {});
    for (const [key, value] of entries as [string, unknown][]) {
      if (key !== "messages") continue;
      for (const m of Array.isArray(value) ? value : [value]) {
        const id = (m as { tool_call_id?: unknown } | null)?.tool_call_id;
        if (typeof id === "string") ids.add(id);
      }
    }
  }
  return ids;
}

/**
 * The commands tools returned, checked: a command may update the state (through the node's write
 * guard, like any update); it may not send the run elsewhere, and it must answer its tool call
 * with a tool message, as a model needs every call answered before it is asked again.
 */
function checkCommands(name: string, outputs: readonly unknown[], state: unknown): void {
  for (const out of outputs) {
    if (!isCommand(out)) continue;
    if ((out.goto !== undefined && (!Array.isArray(out.goto) || out.goto.length)) || out.graph) {
      throw new GraphspecRunError(
        "tool-error",
        `node \`${name}\`: a tool returned a Command that ${out.graph ? "addresses another graph" : "sends the run to another node"}; a tool's Command may only update the state`,
        {
          node: name,
          hint: "return `new Command({ update: { … } })` and route with the spec's edges",
        },
      );
    }
  }
  const messages = (state as { messages?: unknown[] }).messages ?? [];
  const last = [...messages].reverse().find((m) => isAIMessage(m as never)) as
    | AIMessage
    | undefined;
  const answered = answeredCalls(outputs);
  const before = new Set(
    messages.map((m) => (m as { tool_call_id?: unknown }).tool_call_id).filter(Boolean),
  );
  const missing = (last?.tool_calls ?? []).find(
    (c) => c.id && !answered.has(c.id) && !before.has(c.id),
  );
  if (missing) {
    throw new GraphspecRunError(
      "tool-error",
      `node \`${name}\`: tool \`${missing.name}\` returned a Command whose update has no tool message answering its call \`${missing.id}\``,
      {
        node: name,
        hint: "add `messages: [new ToolMessage({ content, tool_call_id: runtime.toolCall.id })]` to the Command's update",
      },
    );
  }
}

export const toolsKind: NodeKind<ToolsNode> = {
  lower(name, node, ctx) {
    // Default: every declared tool, and those MCP servers give under their own names.
    const names = node.tools ?? [
      ...new Set([...Object.keys(ctx.spec.tools ?? {}), ...ctx.mcpTools.keys()]),
    ];
    const toolNode = new PolicyToolNode(
      names.map((n) => ctx.tool(n)),
      { handleToolErrors: false },
    );
    return {
      // The tools' code may call a model without passing the config on (run-usage.ts).
      userCode: true,
      run: async ({ state, config }) => {
        // Nothing to run when the last message is not an AI message (the history is empty, or a
        // person or a tool spoke last), as for an AI message without calls; LangGraph's ToolNode
        // would throw instead.
        const messages = (state as { messages?: unknown }).messages;
        const last = Array.isArray(messages) ? messages.at(-1) : undefined;
        if (Array.isArray(messages) && !(last && isAIMessage(last as never))) return {};
        const out = await toolNode.invoke(state, config);
        // Tools that returned Commands: LangGraph's list of updates and commands, passed on.
        if (Array.isArray(out)) checkCommands(name, out, state);
        return out as NodeResult;
      },
    };
  },
};
