/**
 * The node wrapper: what runs a lowered node (node-kind.ts) — context resolved, the expression view
 * of the state made once, the update checked and normalised (write-guard.ts) — and the common
 * options lowered onto LangGraph's own node options (retry, cache, timeout, defer, error handler).
 */
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { Command, isCommand, type LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeCommon } from "../spec/spec-types.generated.js";
import { activeNode } from "./active-node.js";
import { argumentsRefused } from "./arguments-refused.js";
import type { CompileContext } from "./compile-context.js";
import { inTurn, takesTurns } from "./cpu-turns.js";
import { eventLoopTurn } from "./event-loop-turn.js";
import { exprState } from "./expr-view.js";
import { noteFailedNode } from "./failed-node.js";
import type { NodeFunction, NodeOptions } from "./graph-builder.js";
import { GraphspecRunError } from "./graphspec-run-error.js";
import type { LoweredNode, NodeCall } from "./node-kind.js";
import { withRunUsage } from "./run-usage.js";
import { compileWrite } from "./values.js";

/** The lowered node as the function LangGraph runs. */
export function wrapNode(name: string, lowered: LoweredNode, ctx: CompileContext): NodeFunction {
  const allowed = lowered.writes ? new Set(lowered.writes) : undefined;
  const who = { label: `node \`${name}\``, node: name };
  const guard = (update: unknown): Record<string, unknown> => {
    if (update === null || update === undefined) return {};
    if (typeof update !== "object" || Array.isArray(update)) {
      throw new GraphspecRunError(
        "invalid-write",
        `node \`${name}\` returned ${Array.isArray(update) ? "a list" : typeof update}, not an update`,
        {
          node: name,
          hint: 'return an object from channel names to values, e.g. `{ notes: ["done"] }`',
        },
      );
    }
    return ctx.guard(update as Record<string, unknown>, who, allowed);
  };
  return async (state, config) => {
    // In a server, the node's synchronous part waits for its tenant's turn (cpu-turns.ts), which
    // also lets other work run between busy steps; in the executor's runs a deadline or a cancel
    // gets an event-loop turn between busy steps (event-loop-turn.ts).
    const turns = takesTurns();
    const turn = turns ? undefined : eventLoopTurn();
    if (turn) await turn;
    const context = ctx.resolveContext(config?.context, name);
    let vars: Record<string, unknown> | undefined;
    // The run's usage handler, for a node that may call a model (run-usage.ts).
    const runConfig = lowered.callsModels === false ? config : withRunUsage(config);
    const call: NodeCall = {
      state,
      context,
      config: runConfig,
      // Made on first use: function nodes never read it.
      get vars() {
        vars ??= { state: exprState(state, ctx.messageChannels), context };
        return vars;
      },
    };
    let result: unknown;
    try {
      // Only a spec whose tools `bind` values needs to know, inside a tool, which node runs it.
      const own = () =>
        ctx.bindsTools
          ? activeNode.run({ node: name, state, context, vars: call.vars }, () => lowered.run(call))
          : lowered.run(call);
      const body =
        lowered.userCode && runConfig !== config
          ? () => AsyncLocalStorageProviderSingleton.runWithConfig(runConfig, own)
          : own;
      result = await (turns ? inTurn(body) : body());
    } catch (e) {
      // A subgraph node running this graph as its child reports which of its nodes failed.
      noteFailedNode(e, name);
      throw e;
    }
    const checked = (r: unknown) => {
      if (!isCommand(r)) return guard(r);
      // A command for the parent graph writes the parent's channels: not ours to check.
      if (r.graph === Command.PARENT || r.update === undefined) return r;
      const update = Array.isArray(r.update) ? Object.fromEntries(r.update) : r.update;
      return new Command({ ...r, update: guard(update) } as ConstructorParameters<
        typeof Command
      >[0]);
    };
    // A list of updates and commands (a tools node whose tools returned commands): each checked.
    if (Array.isArray(result) && result.some(isCommand)) return result.map(checked);
    return checked(result);
  };
}

/** `{ message, type, node }`: how `on_error.write` sees the error. */
function errorVariable(error: unknown, node: string): Record<string, string> {
  // graphspec's own wrapper (a tool's failure) says what failed; the type is the underlying error's.
  const typed =
    error instanceof GraphspecRunError && error.cause !== undefined ? error.cause : error;
  const e = error as { message?: unknown } | null;
  const t = typed as { name?: unknown; constructor?: { name?: unknown } } | null;
  const type =
    (typeof t?.name === "string" && t.name !== "Error" ? t.name : undefined) ??
    (typeof t?.constructor?.name === "string" ? t.constructor.name : "Error");
  return { message: typeof e?.message === "string" ? e.message : String(error), type, node };
}

/** LangGraph's options for a node: the common options, lowered. */
export function nodeOptions(
  name: string,
  node: NodeCommon,
  lowered: LoweredNode,
  ctx: CompileContext,
): NodeOptions {
  const options: NodeOptions = {};
  const ends = new Set(lowered.ends ?? []);
  if (node.retry) {
    const r = node.retry;
    options.retryPolicy = {
      maxAttempts: r.max_attempts ?? 3,
      initialInterval: r.initial_interval_ms ?? 500,
      backoffFactor: r.backoff_factor ?? 2,
      maxInterval: r.max_interval_ms ?? 128_000,
      jitter: r.jitter ?? true,
      // A spec mistake (a bad write, a failing expression) fails the same way every time.
      retryOn: (e: unknown) => retryable(e),
      // LangGraph would console.log each retry: stdout is the CLI's (`--json` prints one document).
      logWarning: false,
    };
  }
  if (node.cache)
    options.cachePolicy = node.cache.ttl_s === undefined ? {} : { ttl: node.cache.ttl_s };
  if (node.timeout_ms !== undefined) options.timeout = node.timeout_ms;
  if (node.defer) options.defer = true;
  if (node.on_error) {
    const { goto, write } = node.on_error;
    const scope = ctx.expr.scope(`the \`on_error\` of node \`${name}\``, {
      error: ctx.types.error,
    });
    const evaluate =
      write === undefined
        ? undefined
        : compileWrite(
            ctx.values(name),
            ["nodes", name, "on_error", "write"],
            write,
            scope,
            "error",
          );
    const who = { label: `the \`on_error\` of node \`${name}\``, node: name };
    options.errorHandler = (
      state: Record<string, unknown>,
      failure: { error?: unknown } | undefined,
      config?: LangGraphRunnableConfig,
    ) => {
      const context = ctx.resolveContext(config?.context, name);
      const error = errorVariable(failure?.error, name);
      const update = evaluate
        ? ctx.guard(evaluate({ state: exprState(state, ctx.messageChannels), context, error }), who)
        : {};
      return goto === undefined ? update : new Command({ goto: ctx.target(goto), update });
    };
    if (goto !== undefined) ends.add(ctx.target(goto));
  }
  if (ends.size) options.ends = [...ends];
  if (lowered.subgraphs?.length) options.subgraphs = [...lowered.subgraphs];
  return options;
}

/**
 * A spec mistake fails the same way every time; a subgraph's or a tool's failure is judged by its
 * cause (a tool's 503 is retried, its 404 is not) — but not arguments the tool's schema refuses.
 */
function retryable(e: unknown): boolean {
  if (e instanceof GraphspecRunError) {
    if (e.cause === undefined) return false;
    if (e.code === "subgraph") return retryable(e.cause);
    if (e.code === "tool-error") return !argumentsRefused(e.cause) && retryable(e.cause);
    return false;
  }
  return defaultRetryOn(e);
}

/** LangGraph's default (not exported): no retry on cancellation or on client errors that will not change. */
function defaultRetryOn(error: unknown): boolean {
  const e = error as {
    name?: string;
    message?: string;
    code?: string;
    status?: number;
    response?: { status?: number };
  };
  if (
    e?.name === "AbortError" ||
    e?.message?.startsWith("Cancel") ||
    e?.message?.startsWith("AbortError")
  )
    return false;
  if (e?.name === "GraphValueError" || e?.code === "ECONNABORTED") return false;
  if ((e as { error?: { code?: string } })?.error?.code === "insufficient_quota") return false;
  const status = Number(e?.response?.status ?? e?.status);
  return !(status >= 400 && status <= 409 && status !== 408);
}
