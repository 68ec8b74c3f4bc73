/**
 * What an `llm` or `agent` node sends: the system prompt, the history, then the prompt as a
 * user message. The history defaults to the state's `messages` (the messages themselves); a
 * `messages` template gives Message records (how expressions see messages), which become chat
 * messages again here — the state's own messages when their ids match (llm/messages.ts).
 */
import { type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { renderText } from "../../expr/index.js";
import type { AgentNode, LlmNode } from "../../spec/spec-types.generated.js";
import type { CompileContext } from "../compile-context.js";
import { GraphspecRunError } from "../graphspec-run-error.js";
import type { NodeCall } from "../node-kind.js";
import { preview } from "../preview.js";
import { compileText, type Evaluate, locationOf } from "../values.js";
import { messagesById, toChatMessage } from "./messages.js";

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
  const where = locationOf(ctx.doc, ["nodes", name, "messages"]);
  const hasMessages = ctx.spec.state.messages?.type === "messages";
  const fromHistory = (call: NodeCall): BaseMessage[] => {
    if (!history) {
      return hasMessages && Array.isArray(call.state.messages)
        ? (call.state.messages as BaseMessage[])
        : [];
    }
    const given = history(call.vars);
    const known = messagesById(ctx.messageChannels.map((c) => call.state[c]));
    return (Array.isArray(given) ? given : [given]).map((m, i) => {
      const message = toChatMessage(m, known);
      if (message) return message;
      throw new GraphspecRunError(
        "expression",
        `node \`${name}\`: \`messages\` (${where}) gave ${preview(m)} at position ${i}, which is not a message`,
        {
          node: name,
          hint: "give a list of messages (e.g. `${{ state.messages }}`), strings or `{ role, content }` maps",
        },
      );
    });
  };
  return (call) => {
    const out: BaseMessage[] = [];
    if (system) out.push(new SystemMessage(renderText(system(call.vars))));
    out.push(...fromHistory(call));
    if (prompt) out.push(new HumanMessage(renderText(prompt(call.vars))));
    return out;
  };
}
