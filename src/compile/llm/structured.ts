/**
 * Structured output: the model asked with `withStructuredOutput` (the raw answer kept, so its
 * usage survives), the result checked against `output.schema` with Ajv; an answer that does not
 * match is sent back once with what was wrong, then it is an `invalid-output` error.
 *
 * Providers answer a structured call either as JSON text (OpenAI's JSON schema mode) or as a call
 * of a tool named after the schema (function calling). A tool call must be answered by a tool
 * message before anything else is said, so the feedback is one; and the message kept in the
 * history is the answer as JSON text, so no tool call is left unanswered there.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  AIMessage,
  type BaseMessage,
  HumanMessage,
  isAIMessage,
  ToolMessage,
} from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { OutputSpec } from "../../spec/spec-types.generated.js";
import { GraphspecRunError } from "../graphspec-run-error.js";
import { preview } from "../preview.js";
import { valueCheck } from "../value-check.js";
import { stoppedShort, stoppedShortError, stoppedShortFailure } from "./stopped-short.js";

export type AskStructured = (
  messages: BaseMessage[],
  config: RunnableConfig,
) => Promise<{ message: BaseMessage; structured: unknown }>;

const toolCallsOf = (m: BaseMessage) => (isAIMessage(m) ? (m.tool_calls ?? []) : []);

/** What the model is told when its structured answer does not match (an `agent`'s too). */
export const mismatchFeedback = (what: string): string =>
  `Your answer does not match the required schema: ${what}. Answer again, matching the schema exactly.`;

/** The model's answer, then what it is told when the answer does not match. */
function feedback(raw: BaseMessage, what: string): BaseMessage[] {
  const text = mismatchFeedback(what);
  const calls = toolCallsOf(raw);
  if (!calls.length) return [raw, new HumanMessage(text)];
  return [
    raw,
    ...calls.map(
      (c) => new ToolMessage({ content: text, tool_call_id: c.id ?? "", status: "error" }),
    ),
  ];
}

/** The answer as the history keeps it: JSON text, with the raw answer's id and usage. */
function historyMessage(raw: BaseMessage, structured: unknown): BaseMessage {
  if (!toolCallsOf(raw).length) return raw;
  const ai = raw as AIMessage;
  return new AIMessage({
    content: JSON.stringify(structured),
    ...(ai.id ? { id: ai.id } : {}),
    ...(ai.usage_metadata ? { usage_metadata: ai.usage_metadata } : {}),
    response_metadata: ai.response_metadata,
  });
}

export function structuredAsker(
  node: string,
  model: BaseChatModel,
  output: OutputSpec,
): AskStructured {
  const check = valueCheck(output.schema);
  const runnable = model.withStructuredOutput(output.schema as Record<string, unknown>, {
    ...(output.name ? { name: output.name } : {}),
    includeRaw: true,
  });
  return async (messages, config) => {
    let sent = messages;
    for (let attempt = 1; ; attempt++) {
      const answer = (await runnable.invoke(sent, config).catch((e: unknown) => {
        const why = stoppedShortError(e);
        throw why ? stoppedShortFailure(node, why, undefined, e) : e;
      })) as { raw: BaseMessage; parsed: unknown };
      // A provider's parser gives null for an answer that is not JSON at all — and, for
      // @langchain/anthropic's, for a forced tool call whose answer was streamed (a streamed run):
      // it reads the content blocks, where the arguments are still `input_json_delta` pieces,
      // while the message's own `tool_calls` hold them parsed. The one forced call's are the answer.
      const calls = toolCallsOf(answer.raw);
      if (answer.parsed == null && calls.length === 1) answer.parsed = calls[0]!.args;
      const problems = check(answer.parsed, "output");
      if (!problems.length) {
        return { message: historyMessage(answer.raw, answer.parsed), structured: answer.parsed };
      }
      const why = stoppedShort(answer.raw);
      if (why) throw stoppedShortFailure(node, why, answer.raw.text);
      const what = problems.map((p) => p.message).join("; ");
      if (attempt === 2) {
        throw new GraphspecRunError(
          "invalid-output",
          `node \`${node}\`: the model's answer does not match \`output.schema\`, twice: ${what} (answer: ${preview(answer.parsed ?? answer.raw.text)})`,
          {
            node,
            field: "output",
            hint: "make the schema easier to follow (descriptions, fewer required fields), or use a stronger model",
          },
        );
      }
      sent = [...messages, ...feedback(answer.raw, what)];
    }
  };
}
