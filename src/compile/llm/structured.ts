/**
 * Structured output: the model asked with `withStructuredOutput` (the raw answer kept, so its
 * usage survives), the result checked against `output.schema` with Ajv; an answer that does not
 * match is sent back once with what was wrong, then it is an `invalid-output` error.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { OutputSpec } from "../../spec/spec-types.js";
import { GraphspecRunError, preview } from "../errors.js";
import { valueCheck } from "../schemas.js";

export type AskStructured = (
  messages: BaseMessage[],
  config: RunnableConfig,
) => Promise<{ raw: BaseMessage[]; structured: unknown }>;

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
    const raw: BaseMessage[] = [];
    let sent = messages;
    for (let attempt = 1; ; attempt++) {
      const answer = (await runnable.invoke(sent, config)) as { raw: BaseMessage; parsed: unknown };
      raw.push(answer.raw);
      const problems = check(answer.parsed, "output");
      if (!problems.length) return { raw, structured: answer.parsed };
      const what = problems.map((p) => p.message).join("; ");
      if (attempt === 2) {
        throw new GraphspecRunError(
          "invalid-output",
          `node \`${node}\`: the model's answer does not match \`output.schema\`, twice: ${what} (answer: ${preview(answer.parsed)})`,
          {
            node,
            hint: "make the schema easier to follow (descriptions, fewer required fields), or use a stronger model",
          },
        );
      }
      sent = [
        ...messages,
        answer.raw,
        new HumanMessage(
          `Your answer does not match the required schema: ${what}. Answer again, matching the schema exactly.`,
        ),
      ];
    }
  };
}
