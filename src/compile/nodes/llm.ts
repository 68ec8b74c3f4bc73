/**
 * `llm`: one chat-model call — system prompt, history, prompt (llm/prompt.ts) — with the node's tools bound
 * (a `tools` node runs the calls) or, with `output.schema`, a structured answer checked against
 * the schema (llm/structured.ts). The answer goes where `write` says (llm/result.ts); the AI
 * message keeps its `usage_metadata`, and every call (a retried structured one too) reports its
 * usage to the run's callbacks, since the call gets the node's config.
 */
import type { AIMessage } from "@langchain/core/messages";
import type { LlmNode } from "../../spec/spec-types.generated.js";
import { CompileError } from "../compile-error.js";
import { promptBuilder } from "../llm/prompt.js";
import { answerWriter } from "../llm/result.js";
import { structuredAsker } from "../llm/structured.js";
import type { NodeKind } from "../node-kind.js";
import { locationOf } from "../values.js";

export const llmKind: NodeKind<LlmNode> = {
  async lower(name, node, ctx) {
    if (node.output && node.tools?.length) {
      // A structured answer is the whole answer: the model could not also ask for tools.
      throw new CompileError(
        `${locationOf(ctx.doc, ["nodes", name, "output"])}: llm node \`${name}\` has both \`tools\` and \`output\`; a structured answer cannot also call tools (use an \`agent\` node, whose \`output\` is its final answer, or an llm with \`tools\` followed by one with \`output\`)`,
      );
    }
    const prompt = promptBuilder(name, node, ctx, { continuesTurn: true });
    const write = answerWriter(name, node, ctx);
    const output = node.output;
    if (output) {
      const askWith = await ctx.perRunModel(node.model, (model) =>
        structuredAsker(name, model, output),
      );
      return {
        run: async (call) => {
          const ask = await askWith(call.config, call.context);
          const sent = prompt(call);
          const { message, structured } = await ask(sent.messages, call.config);
          return write(call.vars, { messages: [message], structured, prompt: sent.prompt });
        },
      };
    }
    const tools = node.tools ?? [];
    const boundWith = await ctx.perRunModel(node.model, (model, entry) => {
      if (tools.length && typeof model.bindTools !== "function") {
        throw new CompileError(
          `${locationOf(ctx.doc, ["nodes", name, "tools"])}: llm node \`${name}\` binds tools, but its model \`${entry}\` cannot call tools`,
        );
      }
      return tools.length ? model.bindTools!(tools.map((t) => ctx.tool(t))) : model;
    });
    return {
      run: async (call) => {
        const bound = await boundWith(call.config, call.context);
        const sent = prompt(call);
        const answer = (await bound.invoke(sent.messages, call.config)) as AIMessage;
        return write(call.vars, { messages: [answer], prompt: sent.prompt });
      },
    };
  },
};
