/**
 * Where an `llm` or `agent` node's answer goes. Without `write`: the new messages are appended to
 * `messages` — for an `llm` node, the prompt it sent, then its answer. `write: channel`: a message channel gets the message(s), another channel the
 * structured output — or, without `output.schema`, the answer's text. A `write` map sees `output`:
 * the structured output, or the answer as a Message record; a record of the answer written to a
 * message channel is the answer itself again (its usage and tool calls kept).
 */
import type { BaseMessage } from "@langchain/core/messages";
import { MESSAGE_TYPE, typeFromSchema } from "../../expr/index.js";
import type { AgentNode, LlmNode } from "../../spec/spec-types.generated.js";
import type { CompileContext } from "../compile-context.js";
import { messageView } from "../expr-view.js";
import { compileWrite } from "../values.js";
import { messagesById, restoreMessages } from "./messages.js";

export interface Answer {
  /** The messages the node adds (an llm: one; an agent: its whole loop). */
  messages: BaseMessage[];
  /** The structured output, when the node has `output.schema`. */
  structured?: unknown;
  /** The prompt's user message, stored before the answer where the answer is a message. */
  prompt?: BaseMessage;
}

/** The messages an answer adds to a message channel: the prompt that asked, then the answer. */
const added = (answer: Answer) =>
  answer.prompt ? [answer.prompt, ...answer.messages] : answer.messages;

export type WriteAnswer = (
  vars: Record<string, unknown>,
  answer: Answer,
) => Record<string, unknown>;

export function answerWriter(
  name: string,
  node: LlmNode | AgentNode,
  ctx: CompileContext,
): WriteAnswer {
  const schema = node.output?.schema;
  const write = node.write;
  if (write === undefined) return (_vars, answer) => ({ messages: added(answer) });
  if (typeof write === "string") {
    const isMessages = ctx.spec.state[write]?.type === "messages";
    return (_vars, answer) => {
      if (isMessages) return { [write]: added(answer) };
      if (schema !== undefined) return { [write]: answer.structured };
      return { [write]: answer.messages.at(-1)?.text ?? "" };
    };
  }
  const outputType = schema === undefined ? MESSAGE_TYPE : typeFromSchema(schema, "Output");
  const scope = ctx.expr.scope(`the \`write\` of node \`${name}\``, { output: outputType });
  const evaluate = compileWrite(ctx.values(name), ["nodes", name, "write"], write, scope, "output");
  const messageKeys = Object.keys(write).filter((k) => ctx.spec.state[k]?.type === "messages");
  return (vars, answer) => {
    const last = answer.messages.at(-1);
    const output = schema !== undefined ? answer.structured : last ? messageView(last) : null;
    const update = evaluate({ ...vars, output });
    if (!messageKeys.length) return update;
    const known = messagesById([answer.messages]);
    for (const key of messageKeys) update[key] = restoreMessages(update[key], known);
    return update;
  };
}
