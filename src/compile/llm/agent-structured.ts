/**
 * An `agent` node's structured answer: LangChain's tool strategy (the model calls `output.name`),
 * with the answer checked here against `output.schema`. See `structuredAnswers`.
 */
import { type AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { type StructuredToolInterface, tool } from "@langchain/core/tools";
import { type AgentMiddleware, createMiddleware, ToolStrategy } from "langchain";
import type { AgentNode } from "../../spec/spec-types.generated.js";
import { valueCheck } from "../value-check.js";
import { mismatchFeedback } from "./structured.js";

/** The tool a model calls to give a structured answer. */
export const outputToolName = (node: AgentNode): string => node.output?.name ?? "structured_output";

/** A structured answer as LangChain's model step gives it. */
const isStructured = (v: unknown): v is { structuredResponse: unknown; messages: BaseMessage[] } =>
  typeof v === "object" && v !== null && "structuredResponse" in v && "messages" in v;

/**
 * The agent's structured answer: LangChain's tool strategy (a call of `output.name`, on every
 * provider), checked against `output.schema` here rather than by the strategy. On a wrong answer
 * the strategy retries with a Command that jumps back to the model while the graph's edges also
 * leave it — two paths at once, which with a before/after-model hook (`approve`, `max_steps`)
 * collide on the agent's internal channels (`jumpTo`) or call the model twice
 * (langchain-ai/langchainjs#10175). Here a call that does not match is left in the model's reply,
 * unanswered, so the loop takes its one ordinary path to the tools, where `output.name` (a tool
 * the model is not shown a second time) answers it with what was wrong; the model then tries
 * again, a step like any other (it counts toward `max_steps`).
 */
export function structuredAnswers(node: AgentNode) {
  const name = outputToolName(node);
  const schema = node.output!.schema as Record<string, unknown>;
  const check = valueCheck(schema);
  const problems = (args: unknown) =>
    check(args, "output")
      .map((p) => p.message)
      .join("; ");
  const strategy = ToolStrategy.fromSchema(
    {
      description: "Give your final answer by calling this tool.",
      ...schema,
      title: name,
    } as never,
    // Two calls of it in one reply: LangChain would retry by the same two paths; it fails instead.
    { handleError: false },
  );
  // Accepted as given: the check below decides.
  strategy.parse = (args) => args as never;
  const feedback = tool(
    async (args: Record<string, unknown>, config: { toolCall?: { id?: string } }) => {
      const what = problems(args);
      return new ToolMessage({
        content: what ? mismatchFeedback(what) : JSON.stringify(args),
        tool_call_id: config.toolCall?.id ?? "",
        name,
        status: what ? "error" : "success",
      });
    },
    {
      name,
      description: "Answers a structured answer that did not match.",
      schema: { type: "object" },
    },
  ) as unknown as StructuredToolInterface;
  const middleware = createMiddleware({
    name: "GraphspecStructuredAnswer",
    wrapModelCall: async (request, handler) => {
      // The model is offered the output tool once: as LangChain's structured-output tool.
      const tools = (request.tools ?? []).filter((t) => t !== feedback);
      const answer = await handler({ ...request, tools } as typeof request);
      if (!isStructured(answer) || !problems(answer.structuredResponse)) return answer;
      return answer.messages[0] as AIMessage;
    },
  }) as AgentMiddleware;
  return { strategy, feedback, middleware, name };
}
