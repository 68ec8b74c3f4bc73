/**
 * `llm`: one chat-model call — system prompt, history, prompt — with the node's tools bound
 * (a `tools` node runs the calls) and, with `output.schema`, a structured answer checked against
 * the schema (llm/structured.ts). The answer goes where `write` says (llm/result.ts).
 */
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { LlmNode } from "../../spec/spec-types.js";
import { promptBuilder } from "../llm/prompt.js";
import { answerWriter } from "../llm/result.js";
import { structuredAsker } from "../llm/structured.js";
import type { NodeKind } from "../node.js";

export const llmKind: NodeKind<LlmNode> = {
  async lower(name, node, ctx) {
    const model = await ctx.model(node.model);
    const prompt = promptBuilder(name, node, ctx);
    const write = answerWriter(name, node, ctx);
    if (node.output) {
      const ask = structuredAsker(name, model, node.output);
      return {
        run: async (call) => {
          const { raw, structured } = await ask(prompt(call), call.config);
          // The answer kept in `messages` is the one that matched (its usage is on it).
          return write(call.vars, { messages: raw.slice(-1), structured });
        },
      };
    }
    const bound = node.tools?.length ? model.bindTools!(node.tools.map((t) => ctx.tool(t))) : model;
    return {
      run: async (call) => {
        const answer = (await bound.invoke(prompt(call), call.config)) as AIMessage;
        return write(call.vars, { messages: [answer as BaseMessage] });
      },
    };
  },
};
