/**
 * `agent`: a tool-calling loop — LangChain's `createAgent` with the node's tools, `max_steps` as a
 * model-call limit (the loop ends, it does not fail), `approve` as LangChain's human-in-the-loop
 * middleware (the run pauses before an approved tool runs, and resumes with decisions), and
 * `output.schema` as its response format. The agent runs inside the node with the node's config,
 * so its checkpoints and interrupts nest under the node: a resume continues inside the loop.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { createAgent, humanInTheLoopMiddleware, modelCallLimitMiddleware } from "langchain";
import type { AgentNode } from "../../spec/spec-types.js";
import { GraphspecRunError } from "../errors.js";
import { promptBuilder } from "../llm/prompt.js";
import { answerWriter } from "../llm/result.js";
import type { NodeKind } from "../node.js";
import { valueCheck } from "../schemas.js";

/** The tool name a model calls to give a structured answer (LangChain's tool strategy). */
export const structuredToolName = (node: AgentNode): string =>
  node.output?.name ?? "structured_output";

export const agentKind: NodeKind<AgentNode> = {
  async lower(name, node, ctx) {
    const model = await ctx.model(node.model);
    const middleware = [];
    if (node.max_steps !== undefined) {
      middleware.push(modelCallLimitMiddleware({ runLimit: node.max_steps, exitBehavior: "end" }));
    }
    if (node.approve?.length) {
      middleware.push(
        humanInTheLoopMiddleware({
          interruptOn: Object.fromEntries(node.approve.map((t) => [t, true])),
        }),
      );
    }
    const schema = node.output?.schema;
    const agent = createAgent({
      model,
      tools: node.tools.map((t) => ctx.tool(t)),
      middleware,
      name,
      ...(schema !== undefined
        ? {
            responseFormat: {
              ...(schema as Record<string, unknown>),
              title: structuredToolName(node),
            },
          }
        : {}),
    } as never) as unknown as {
      invoke(
        input: unknown,
        config: unknown,
      ): Promise<{ messages: BaseMessage[]; structuredResponse?: unknown }>;
    };
    const check = schema === undefined ? undefined : valueCheck(schema);
    const prompt = promptBuilder(name, node, ctx);
    const write = answerWriter(name, node, ctx);
    return {
      subgraphs: [agent],
      run: async (call) => {
        const sent = prompt(call);
        const result = await agent.invoke(
          { messages: sent },
          { ...call.config, context: call.context },
        );
        // The loop's own messages: what the agent added after what it was given.
        const added = result.messages.slice(sent.length);
        if (check) {
          const problem = check(result.structuredResponse, "output")[0];
          if (problem) {
            throw new GraphspecRunError(
              "invalid-output",
              `node \`${name}\`: the agent's final answer does not match \`output.schema\`: ${problem.message}`,
              {
                node: name,
                hint: `the model answers by calling \`${structuredToolName(node)}\`; make the schema easier to follow, or raise \`max_steps\``,
              },
            );
          }
        }
        return write(call.vars, { messages: added, structured: result.structuredResponse });
      },
    };
  },
};
