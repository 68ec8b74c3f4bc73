/**
 * Typed runs of one graph, for the modules `graphspec types` writes: the same executor and compiled
 * graph, with the spec's input, output, context, interrupt payloads and resume values as
 * TypeScript types. Nothing here checks more than the executor and the graph already do at run
 * time; the types let the compiler catch what those checks would refuse.
 *
 * LangGraph loads only when a compiled graph is resumed (its `Command`), as everywhere in the
 * package entry.
 */
import type { BaseMessage, BaseMessageLike } from "@langchain/core/messages";
import type { SpecGraph } from "../compile/index.js";
import type { Executor, ResumeOptions, RunOptions } from "./executor-api.js";
import type { RunError, RunResult } from "./result.js";

/** A message as a `messages` channel holds it (LangChain's `BaseMessage`). */
export type GraphMessage = BaseMessage;
/** What a `messages` channel may be given: a message, a string, a `{ role, content }` map, … */
export type GraphMessageInput = BaseMessageLike;

/** What an agent's `approve` pause shows (LangChain's human-in-the-loop request). */
export interface ToolApprovalRequest<Tool extends string = string> {
  actionRequests: { name: Tool; args: Record<string, unknown>; description?: string }[];
  reviewConfigs: {
    actionName: Tool;
    allowedDecisions: ("approve" | "edit" | "reject")[];
    argsSchema?: Record<string, unknown>;
  }[];
}

/** One decision per pending call, in order (LangChain's human-in-the-loop response). */
export interface ToolApprovalAnswer<Tool extends string = string> {
  decisions: (
    | { type: "approve" }
    | { type: "edit"; editedAction: { name: Tool; args: Record<string, unknown> } }
    | { type: "reject"; message?: string }
  )[];
}

/** An interrupt node's pause after a refused resume value: the payload again, and why. */
export interface RefusedResume<Payload> {
  payload: Payload;
  error: { message: string; hint?: string; resume: unknown };
}

/** The types of one graph, as `graphspec types` writes them. */
export interface GraphTypes {
  name: string;
  state: object;
  input: object;
  output: object;
  context: object;
  /** By node that can pause: `{ payload, resume }`, what the pause shows and what answers it. */
  interrupts: object;
}

type InterruptNode<G extends GraphTypes> = keyof G["interrupts"] & string;
type PayloadOf<G extends GraphTypes, N extends InterruptNode<G>> = G["interrupts"][N] extends {
  payload: infer P;
}
  ? P
  : unknown;
type ResumeOf<G extends GraphTypes, N extends InterruptNode<G>> = G["interrupts"][N] extends {
  resume: infer R;
}
  ? R
  : unknown;

/** A pending interrupt: `node` tells which, and so what `value` is. */
export type TypedInterrupt<G extends GraphTypes> = {
  [N in InterruptNode<G>]: { id: string; node: N; value: PayloadOf<G, N> };
}[InterruptNode<G>];

/** An answer to a pending interrupt: its `node`, and a value of the type that node takes. */
export type TypedAnswer<G extends GraphTypes> = {
  [N in InterruptNode<G>]: { node: N; value: ResumeOf<G, N> };
}[InterruptNode<G>];

/** `context` must be given when the spec requires a key of it. */
type ContextOption<G extends GraphTypes> = object extends G["context"]
  ? { context?: G["context"] }
  : { context: G["context"] };

/** A RunResult whose `status` tells what else it holds. */
export type TypedRunResult<G extends GraphTypes> = Omit<
  RunResult,
  "status" | "output" | "interrupts" | "error"
> &
  (
    | { status: "completed"; output: G["output"]; interrupts: TypedInterrupt<G>[] }
    | { status: "interrupted"; output: G["output"]; interrupts: TypedInterrupt<G>[] }
    | {
        status: "failed";
        output: Partial<G["output"]>;
        interrupts: TypedInterrupt<G>[];
        error: RunError;
      }
  );

export interface TypedRuns<G extends GraphTypes> {
  run(
    options: Omit<RunOptions, "input" | "context"> & { input: G["input"] } & ContextOption<G>,
  ): Promise<TypedRunResult<G>>;
  /** Answers the pending interrupt of `node`; without `node` and `value`, continues a stopped run. */
  resume(
    options: Omit<ResumeOptions, "value" | "context"> & { context?: Partial<G["context"]> } & (
        | TypedAnswer<G>
        | { node?: never; value?: never }
      ),
  ): Promise<TypedRunResult<G>>;
}

/** Typed runs of `graph` (a name the executor finds in its `dir`, or a path) on `executor`. */
export function typedRuns<G extends GraphTypes>(executor: Executor, graph: string): TypedRuns<G> {
  return {
    run: async (options) => (await executor.run(graph, options as RunOptions)) as never,
    async resume(options) {
      const { node: _node, ...rest } = options as ResumeOptions & { node?: string };
      return (await executor.resume(graph, rest)) as never;
    },
  };
}

/** Where a compiled graph's run is kept, and what it is given besides its input. */
export type TypedInvokeOptions<G extends GraphTypes> = {
  threadId: string;
  /** More of LangGraph's config (`recursionLimit`, `configurable.model`, callbacks, …). */
  config?: Record<string, unknown>;
} & ContextOption<G>;

/** What `invoke` returned: the output, and the interrupts a paused run waits on. */
export type TypedInvokeResult<G extends GraphTypes> =
  | { status: "completed"; output: G["output"] }
  | { status: "interrupted"; output: G["output"]; interrupts: TypedInterrupt<G>[] };

export interface TypedGraph<G extends GraphTypes> {
  graph: SpecGraph;
  invoke(input: G["input"], options: TypedInvokeOptions<G>): Promise<TypedInvokeResult<G>>;
  resume(answer: TypedAnswer<G>, options: TypedInvokeOptions<G>): Promise<TypedInvokeResult<G>>;
}

/**
 * A compiled graph (`compile(spec)`, given a checkpointer) with typed `invoke` and `resume`. A
 * paused run's interrupts are named by the node that paused, read from the thread's state, as
 * the executor names them.
 */
export function typedGraph<G extends GraphTypes>(graph: SpecGraph): TypedGraph<G> {
  const configOf = (options: TypedInvokeOptions<G>) => {
    const extra = options.config ?? {};
    const configurable = (extra.configurable ?? {}) as Record<string, unknown>;
    const context = (options as { context?: Record<string, unknown> }).context;
    return {
      ...extra,
      configurable: { ...configurable, thread_id: options.threadId },
      ...(context !== undefined ? { context } : {}),
    };
  };
  const settle = async (
    values: Record<string, unknown>,
    config: ReturnType<typeof configOf>,
  ): Promise<TypedInvokeResult<G>> => {
    const { __interrupt__: _pending, ...output } = values ?? {};
    // Read back rather than from `__interrupt__`: that names no node, and a breakpoint has none.
    const state = await graph.getState(config);
    const interrupts = state.tasks.flatMap((task) =>
      (task.interrupts ?? []).map((i) => ({ id: String(i.id), node: task.name, value: i.value })),
    );
    if (interrupts.length === 0 && state.next.length === 0) {
      return { status: "completed", output: output as G["output"] };
    }
    return {
      status: "interrupted",
      output: output as G["output"],
      interrupts: interrupts as TypedInterrupt<G>[],
    };
  };
  return {
    graph,
    async invoke(input, options) {
      const config = configOf(options);
      return settle(await graph.invoke(input, config), config);
    },
    async resume(answer, options) {
      const { Command } = await import("@langchain/langgraph");
      const config = configOf(options);
      return settle(await graph.invoke(new Command({ resume: answer.value }), config), config);
    },
  };
}
