/**
 * `agent`: a tool-calling loop — LangChain's `createAgent` with the node's tools, `max_steps` as
 * LangChain's model-call limit (the loop ends, it does not fail), `approve` as its
 * human-in-the-loop middleware (the run pauses before an approved tool runs, and resumes with
 * decisions), and `output.schema` as its response format, always by tool calling. The agent runs
 * inside the node with the node's config, so its checkpoints and interrupts nest under the node
 * and a resume continues inside the loop; what it adds to the history is the node's answer. Its
 * tools see the graph's state as `runtime.state`, as in a `tools` node, not the agent's own.
 */

import { AsyncLocalStorage } from "node:async_hooks";
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import {
  Command,
  isCommand,
  isGraphInterrupt,
  type LangGraphRunnableConfig,
} from "@langchain/langgraph";
import {
  type AgentMiddleware,
  createAgent,
  createMiddleware,
  humanInTheLoopMiddleware,
  MultipleStructuredOutputsError,
  modelCallLimitMiddleware,
  ToolInvocationError,
} from "langchain";
import type { AgentNode } from "../../spec/spec-types.generated.js";
import { agentCallbacks } from "../agent-tokens.js";
import { boundArguments } from "../build-tool.js";
import type { CompileContext } from "../compile-context.js";
import { failsRun } from "../fails-run.js";
import { GraphspecRunError } from "../graphspec-run-error.js";
import { outputToolName, structuredAnswers } from "../llm/agent-structured.js";
import { promptBuilder } from "../llm/prompt.js";
import { answerWriter } from "../llm/result.js";
import type { NodeKind } from "../node-kind.js";
import { policyDenial } from "../tool-policy.js";
import { valueCheck } from "../value-check.js";

/** How LangChain's model-call limit says it ended the loop (its closing AI message). */
const LIMIT_MESSAGE = /^Model call limits exceeded/;

interface Agent {
  invoke(
    input: { messages: BaseMessage[] },
    config: LangGraphRunnableConfig,
  ): Promise<{ messages: BaseMessage[]; structuredResponse?: unknown }>;
  graph: { nodes: Record<string, unknown> };
}

/** What the node's run shares with the code LangChain runs inside its loop. */
interface LoopScope {
  /** The graph's state as the node read it: what the agent's tools see as `runtime.state`. */
  graphState: Record<string, unknown>;
  /**
   * What tools wrote to the graph's channels with a Command. The agent's own state has only its
   * messages, and would drop the rest silently: it is kept here and written by the node.
   */
  written: Record<string, unknown>[];
}

const loopScope = new AsyncLocalStorage<LoopScope>();

/** A tool's Command with its writes to the graph's channels taken out (kept for the node). */
function graphUpdates<T>(result: T): T {
  const kept = loopScope.getStore()?.written;
  if (!kept || !isCommand(result) || result.update === undefined || result.update === null)
    return result;
  const entries = Array.isArray(result.update)
    ? (result.update as [string, unknown][])
    : Object.entries(result.update as Record<string, unknown>);
  const graph = entries.filter(([k]) => k !== "messages");
  if (!graph.length) return result;
  kept.push(Object.fromEntries(graph));
  return new Command({
    ...result,
    update: Object.fromEntries(entries.filter(([k]) => k === "messages")),
  } as ConstructorParameters<typeof Command>[0]) as T;
}

type Invokable = Pick<StructuredToolInterface, "invoke">;

/**
 * The tool as LangChain's ToolNode runs it, but with the graph's state as its `runtime.state`
 * (LangChain hands it the agent's: `jumpTo`, `lg_tool_call`, call counters). The graph's
 * channels as the node read them, with `messages` the loop's own: the call being run is in it,
 * as in a `tools` node.
 */
function withGraphState(
  tool: Invokable,
  agentState: { messages?: unknown } | undefined,
  scope: LoopScope,
): Invokable {
  const state = { ...scope.graphState, messages: agentState?.messages ?? [] };
  return {
    ...tool,
    invoke: (input: unknown, config?: Record<string, unknown>) =>
      tool.invoke(input as never, { ...config, state } as never),
  } as unknown as Invokable;
}

/**
 * The run's tool allowlist (tool-policy.ts), checked where the loop runs a tool: after an approval,
 * so an approved or edited call is held to it too.
 */
function toolPolicy(outputTool: string | undefined) {
  return createMiddleware({
    name: "GraphspecToolPolicy",
    wrapToolCall: async (request, handler) => {
      const runtime = request.runtime as {
        configurable?: Record<string, unknown>;
        signal?: AbortSignal;
      };
      // The output tool is how the agent answers, not a tool the allowlist is about.
      const denial =
        request.toolCall.name === outputTool
          ? undefined
          : await policyDenial(request.toolCall, runtime.configurable);
      if (denial) return denial;
      const scope = loopScope.getStore();
      const run =
        scope && request.tool
          ? {
              ...request,
              tool: withGraphState(
                request.tool as Invokable,
                request.state as { messages?: unknown },
                scope,
              ),
            }
          : request;
      try {
        return graphUpdates(await handler(run as typeof request));
      } catch (e) {
        // LangChain lets an error from inside a middleware fail the run; a tool's own error is the
        // model's to read, as it is without middleware (its default tool-error handling).
        if (isGraphInterrupt(e) || failsRun(e) || runtime.signal?.aborted) throw e;
        const { toolCall } = request;
        return new ToolMessage({
          content: ToolInvocationError.isInstance(e)
            ? e.message
            : `${e}\n Please fix your mistakes.`,
          tool_call_id: toolCall.id ?? "",
          name: toolCall.name,
          status: "error",
        });
      }
    },
  });
}

/**
 * The model's tool calls with the tools' `bind` values applied, so what follows — an approval
 * request, the transcript, events — shows the arguments the tools run with, not invented ones.
 */
function boundCalls(tools: readonly StructuredToolInterface[]): AgentMiddleware | undefined {
  const byName = new Map(
    tools.flatMap((t) => {
      const applied = boundArguments.get(t);
      return applied ? [[t.name, applied] as const] : [];
    }),
  );
  if (!byName.size) return undefined;
  return createMiddleware({
    name: "GraphspecBoundArguments",
    wrapModelCall: async (request, handler) => {
      const answer = await handler(request);
      if (!AIMessage.isInstance(answer) || !answer.tool_calls?.length) return answer;
      answer.tool_calls = answer.tool_calls.map((c) => {
        const applied = byName.get(c.name);
        return applied ? { ...c, args: applied(c.args) as Record<string, unknown> } : c;
      });
      return answer;
    },
  }) as AgentMiddleware;
}

function buildAgent(name: string, node: AgentNode, ctx: CompileContext, model: unknown): Agent {
  const tools = node.tools.map((t) => ctx.tool(t));
  const structured = node.output ? structuredAnswers(node) : undefined;
  const middleware: AgentMiddleware[] = [toolPolicy(structured?.name) as AgentMiddleware];
  const bound = boundCalls(tools);
  if (bound) middleware.push(bound);
  if (structured) middleware.push(structured.middleware);
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
  return createAgent({
    model,
    tools: structured ? [...tools, structured.feedback] : tools,
    middleware,
    name,
    // Tool calling for every provider (LangChain would pick a provider's JSON mode where it
    // knows one), so the answer is a call of `output.name` whatever the model.
    ...(structured ? { responseFormat: structured.strategy } : {}),
  } as never) as unknown as Agent;
}

/** How many of the agent's steps one model call takes: its model, tools and per-call hooks. */
function stepsPerCall(agent: Agent): number {
  return Object.keys(agent.graph.nodes).filter(
    (n) => n === "model_request" || n === "tools" || /\.(before|after)_model$/.test(n),
  ).length;
}

/**
 * The agent's own recursion limit: with `max_steps`, room for that many model calls, so the
 * model-call limit — not LangGraph's — ends the loop. Without it, the graph's limit, counted in
 * the agent's steps, as for any subgraph.
 */
function recursionLimitFor(agent: Agent, maxSteps: number | undefined) {
  if (maxSteps === undefined) return (inherited: number) => inherited;
  const needed = stepsPerCall(agent) * (maxSteps + 1) + Object.keys(agent.graph.nodes).length;
  return (inherited: number) => Math.max(inherited, needed);
}

/** Errors from inside the loop that graphspec can say more about. */
function agentFailure(
  name: string,
  node: AgentNode,
  e: unknown,
  limit: { steps: number; perCall: number },
): unknown {
  if ((e as { name?: unknown } | null)?.name === "GraphRecursionError") {
    return new GraphspecRunError(
      "recursion-limit",
      `node \`${name}\`: the agent's loop did not end within the recursion limit (${limit.steps} of its steps, about ${Math.floor(limit.steps / limit.perCall)} model calls): the model kept calling tools`,
      {
        node: name,
        hint: "give the node `max_steps` to end its loop after that many model calls, or raise `limits.recursion`",
        cause: e,
      },
    );
  }
  for (let c: unknown = e, i = 0; c && i < 4; c = (c as { cause?: unknown }).cause, i++) {
    if (c instanceof MultipleStructuredOutputsError) {
      return new GraphspecRunError(
        "invalid-output",
        `node \`${name}\`: the model gave several structured answers in one reply (${c.toolNames.length} calls of \`${outputToolName(node)}\`)`,
        {
          node: name,
          field: "output",
          hint: `tell the model (in \`system\`) to call \`${outputToolName(node)}\` once, with its final answer`,
          cause: e,
        },
      );
    }
    if ((c as { lc_error_code?: string }).lc_error_code === "MISSING_CHECKPOINTER") {
      return new GraphspecRunError(
        "no-checkpointer",
        `node \`${name}\` pauses the run for a person to approve ${node.approve!.map((t) => `\`${t}\``).join(", ")}, which needs a checkpointer to keep the paused run`,
        {
          node: name,
          hint: "compile with a checkpointer, e.g. `compile(spec, { checkpointer: new MemorySaver() })`, and run with a `thread_id`",
          cause: e,
        },
      );
    }
  }
  return e;
}

/** Throws `invalid-output` when the loop ended without a structured answer that matches the schema. */
function structuredCheck(name: string, node: AgentNode) {
  const check = valueCheck(node.output!.schema);
  const tool = outputToolName(node);
  return (structured: unknown, added: readonly BaseMessage[]): void => {
    if (structured !== undefined) {
      const problem = check(structured, "output")[0];
      if (!problem) return;
      throw new GraphspecRunError(
        "invalid-output",
        `node \`${name}\`: the agent's final answer does not match \`output.schema\`: ${problem.message}`,
        {
          node: name,
          field: "output",
          hint: "make the schema easier to follow, or describe it in `system`",
        },
      );
    }
    const last = added.at(-1);
    const limited = node.max_steps !== undefined && last && LIMIT_MESSAGE.test(last.text);
    throw new GraphspecRunError(
      "invalid-output",
      limited
        ? `node \`${name}\`: the agent reached \`max_steps\` (${node.max_steps} model calls) before it gave its structured answer`
        : `node \`${name}\`: the agent ended without a structured answer: the model answered in text instead of calling \`${tool}\``,
      {
        node: name,
        field: "output",
        hint: limited
          ? "raise `max_steps`, or ask for fewer steps in `system`"
          : `tell the model (in \`system\` or \`prompt\`) to give its final answer by calling \`${tool}\``,
      },
    );
  };
}

/**
 * Where an agent with `write` keeps its loop's messages: `messages`, when the state has that
 * message channel and `write` names no message channel of its own — so the next turn sees the
 * calls and results the answer came from, not the answer alone.
 */
function transcriptChannel(node: AgentNode, ctx: CompileContext): string | undefined {
  if (node.write === undefined || ctx.spec.state.messages?.type !== "messages") return undefined;
  const written = typeof node.write === "string" ? [node.write] : Object.keys(node.write);
  return written.some((c) => ctx.spec.state[c]?.type === "messages") ? undefined : "messages";
}

export const agentKind: NodeKind<AgentNode> = {
  async lower(name, node, ctx) {
    const agentWith = await ctx.perRunModel(node.model, (model) =>
      buildAgent(name, node, ctx, model),
    );
    // The node's own model's agent: every chosen model's agent has the same steps.
    const agent = await agentWith({});
    const limitFor = recursionLimitFor(agent, node.max_steps);
    const perCall = stepsPerCall(agent);
    const checkOutput = node.output ? structuredCheck(name, node) : undefined;
    const prompt = promptBuilder(name, node, ctx);
    const write = answerWriter(name, node, ctx);
    const transcript = transcriptChannel(node, ctx);
    return {
      subgraphs: [agent.graph],
      run: async (call) => {
        const sent = prompt(call).messages;
        const recursionLimit = limitFor(call.config.recursionLimit ?? 25);
        let result: Awaited<ReturnType<Agent["invoke"]>>;
        const written: Record<string, unknown>[] = [];
        try {
          result = await loopScope.run({ graphState: call.state, written }, async () =>
            (await agentWith(call.config, call.context)).invoke(
              { messages: sent },
              {
                ...call.config,
                // Not the node's name: LangGraph's stream would take the loop for the node
                // and send what it was given, the system prompt included, as the node's output.
                runName: `${name}.agent`,
                callbacks: agentCallbacks(call.config),
                context: call.context,
                recursionLimit,
              },
            ),
          );
        } catch (e) {
          throw agentFailure(name, node, e, { steps: recursionLimit, perCall });
        }
        // The loop's own messages: what the agent added after what it was given.
        const added = result.messages.slice(sent.length);
        checkOutput?.(result.structuredResponse, added);
        const update = write(call.vars, { messages: added, structured: result.structuredResponse });
        const answer = transcript ? { ...update, [transcript]: added } : update;
        // Tools' Command writes to the graph's channels, after the answer, each through the guard.
        return written.length
          ? [answer, ...written.map((u) => new Command({ update: u }))]
          : answer;
      },
    };
  },
};
