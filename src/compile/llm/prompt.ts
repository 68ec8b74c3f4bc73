/**
 * What an `llm` or `agent` node sends: the system prompt, the history, then the prompt as a
 * user message. The history defaults to the state's `messages` (the messages themselves); a
 * `messages` template gives Message records (how expressions see messages), which become chat
 * messages again here — the state's own messages when their ids match (llm/messages.ts).
 *
 * An `llm` node's call whose history ends with tool results continues the model's turn (the
 * llm + `tools` loop): the prompt was sent, and stored with the answer, when the turn began, so
 * it is in the history and is not sent again — what a hand-written loop sends.
 */
import {
  type BaseMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { renderText } from "../../expr/index.js";
import type { AgentNode, LlmNode } from "../../spec/spec-types.generated.js";
import type { CompileContext } from "../compile-context.js";
import { CompileError } from "../compile-error.js";
import { GraphspecRunError } from "../graphspec-run-error.js";
import type { NodeCall } from "../node-kind.js";
import { preview } from "../preview.js";
import { compileText, type Evaluate, locationOf } from "../values.js";
import { messagesById, toChatMessage } from "./messages.js";

export interface Prompt {
  /** Everything the model is sent, in order. */
  messages: BaseMessage[];
  /** The prompt's user message, when this call sent one (an `llm` node stores it). */
  prompt?: BaseMessage;
}

export type BuildPrompt = (call: NodeCall) => Prompt;

/**
 * The messages a node sends to its model, built per call. With `continuesTurn` (an `llm` node),
 * a history ending with tool results is sent without the prompt.
 */
export function promptBuilder(
  name: string,
  node: LlmNode | AgentNode,
  ctx: CompileContext,
  { continuesTurn = false } = {},
): BuildPrompt {
  const values = ctx.values(name);
  const scope = ctx.expr.scope(`the prompt of node \`${name}\``);
  const text = (field: "system" | "prompt"): Evaluate | undefined => {
    const given = node[field];
    if (given === undefined) return undefined;
    // A spec read from its file holds a prompt file's text here (spec/prompt-files.ts); one given
    // as text and compiled unchecked (`validate: false`) still names the file.
    if (typeof given !== "string")
      throw new CompileError(
        `node \`${name}\`: \`${field}\` names the prompt file \`${given.file}\`, which was not read: the spec was given as text, with no folder to read it from; load it from its file (\`compile(path)\`, \`loadSpec(path)\`)`,
      );
    return compileText(values, ["nodes", name, field], given, scope);
  };
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
    const messages: BaseMessage[] = [];
    if (system) messages.push(new SystemMessage(renderText(system(call.vars))));
    const past = fromHistory(call);
    messages.push(...past);
    if (!prompt || (continuesTurn && ToolMessage.isInstance(past.at(-1)))) return { messages };
    const sent = new HumanMessage(renderText(prompt(call.vars)));
    messages.push(sent);
    return { messages, prompt: sent };
  };
}
