/**
 * What an `llm` or `agent` node sends: the system prompt, the history, then the prompt as a
 * user message. The history defaults to the state's `messages`; a `messages` template gives
 * Message records (how expressions see messages), which become chat messages again here.
 */
import {
  AIMessage,
  type BaseMessage,
  coerceMessageLikeToMessage,
  HumanMessage,
  isBaseMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { renderText } from "../../expr/index.js";
import { isObject } from "../../spec/data.js";
import type { AgentNode, LlmNode } from "../../spec/spec-types.js";
import type { CompileContext } from "../compile-context.js";
import { GraphspecRunError, preview } from "../errors.js";
import type { NodeCall } from "../node.js";
import { compileText, type Evaluate } from "../values.js";

/** A Message record (or a `{ role, content }` map, or a string) as a chat message. */
function toMessage(node: string, value: unknown): BaseMessage {
  if (isBaseMessage(value)) return value;
  if (isObject(value) && typeof value.type === "string") {
    const content = (value.content ?? value.text ?? "") as string;
    const id = typeof value.id === "string" ? value.id : undefined;
    const fields = { content, ...(id ? { id } : {}) };
    switch (value.type) {
      case "human":
        return new HumanMessage(fields);
      case "system":
        return new SystemMessage(fields);
      case "ai":
        return new AIMessage({
          ...fields,
          tool_calls: Array.isArray(value.tool_calls) ? (value.tool_calls as never) : [],
        });
      case "tool":
        return new ToolMessage({ ...fields, tool_call_id: String(value.tool_call_id ?? "") });
    }
  }
  try {
    return coerceMessageLikeToMessage(value as never);
  } catch {
    throw new GraphspecRunError(
      "invalid-write",
      `node \`${node}\`: its \`messages\` gave ${preview(value)}, which is not a message`,
      {
        node,
        hint: "give a list of messages, strings or `{ role, content }` maps",
      },
    );
  }
}

export type BuildPrompt = (call: NodeCall) => BaseMessage[];

/** The messages a node sends to its model, built per call. */
export function promptBuilder(
  name: string,
  node: LlmNode | AgentNode,
  ctx: CompileContext,
): BuildPrompt {
  const values = ctx.values(name);
  const scope = ctx.expr.scope(`the prompt of node \`${name}\``);
  const text = (field: "system" | "prompt"): Evaluate | undefined =>
    node[field] === undefined
      ? undefined
      : compileText(values, ["nodes", name, field], node[field]!, scope);
  const system = text("system");
  const prompt = text("prompt");
  const history =
    node.messages !== undefined
      ? compileText(values, ["nodes", name, "messages"], node.messages, scope)
      : undefined;
  const hasMessages = ctx.spec.state.messages?.type === "messages";
  return (call) => {
    const out: BaseMessage[] = [];
    if (system) out.push(new SystemMessage(renderText(system(call.vars))));
    if (history) {
      const given = history(call.vars);
      for (const m of Array.isArray(given) ? given : [given]) out.push(toMessage(name, m));
    } else if (hasMessages && Array.isArray(call.state.messages)) {
      out.push(...(call.state.messages as BaseMessage[]));
    }
    if (prompt) out.push(new HumanMessage(renderText(prompt(call.vars))));
    return out;
  };
}
