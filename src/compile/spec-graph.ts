/**
 * The compiled graph: LangGraph's CompiledStateGraph, with a run's input checked before the first
 * step (LangGraph checks nothing for Annotation state, and drops keys that are not channels).
 * A run's choices (the model, the recursion limit, breakpoints) are checked before anything is
 * written, and LangGraph's recursion error becomes graphspec's `recursion-limit`. For a graph
 * given scripts, the run keeps its place in them (models/script-run.ts). All of it lives on the
 * class, keyed by the builder, so copies LangGraph makes (`withConfig`) keep them.
 */
import { BaseCheckpointSaver, CompiledStateGraph, isCommand } from "@langchain/langgraph";
import { didYouMean } from "../diagnostics/suggest.js";
import { isObject } from "../spec/data.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import { GraphspecRunError } from "./graphspec-run-error.js";
import { runStandIn, standInBook } from "./models/run-stand-in.js";
import type { ScriptQueues } from "./models/script.js";
import { SCRIPT_ROOT_STEP_KEY, SCRIPT_RUN_KEY, ScriptRun } from "./models/script-run.js";
import { preview } from "./preview.js";
import { type RunChoices, refuseRunChoices } from "./run-choices.js";
import type { WriteGuard } from "./write-guard.js";

type InputCheck = (input: unknown) => unknown;
const inputChecks = new WeakMap<object, InputCheck>();
/** The spec of each compiled graph (by builder): what a run's choices are checked against. */
const specs = new WeakMap<object, GraphSpec>();

/** A run's choices from LangGraph's config: `configurable.model`, the limit, the breakpoints. */
const choicesOf = (config: any): RunChoices => ({
  model: config?.configurable?.model,
  recursionLimit: config?.recursionLimit,
  interruptBefore: config?.interruptBefore,
  interruptAfter: config?.interruptAfter,
});

const firstLine = (e: unknown): string => String((e as Error)?.message ?? e).split("\n")[0] ?? "";
/** The scripts a graph was compiled with, by builder. */
const scriptBooks = new WeakMap<object, ScriptQueues>();

export class SpecGraph extends CompiledStateGraph<any, any, any, any, any, any, any, any, any> {
  override async _validateInput(input: any): Promise<any> {
    const checked = await super._validateInput(input);
    const check = inputChecks.get(this.builder);
    return check ? check(checked) : checked;
  }

  /**
   * `recursionLimit: undefined` among the options means "not chosen", as it does for `stream`: the
   * graph's own limit (the spec's `limits.recursion`) stays. LangGraph's streamEvents spreads the
   * options over it, so a caller that passes every key (the official LangGraph server does) would
   * run every graph at LangChain's default of 25.
   */
  override streamEvents(input: any, options: any, streamOptions?: any): any {
    if (options && "recursionLimit" in options && options.recursionLimit === undefined) {
      const { recursionLimit: _unset, ...chosen } = options;
      return super.streamEvents(input, chosen, streamOptions);
    }
    return super.streamEvents(input, options, streamOptions);
  }

  /**
   * A run of a graph given scripts starts where its thread's last run left them, and keeps its
   * place with the thread when it ends. A subgraph's run (the parent's ScriptRun in its config)
   * takes turns from the parent's.
   */
  override async *_streamIterator(input: any, options?: any): AsyncGenerator<any> {
    // A subgraph runs inside its parent's task: the parent's run was checked, and a parent's
    // model choice may name models this graph does not allow (it keeps its own).
    const nested = options?.configurable?.__pregel_task_id !== undefined;
    const spec = specs.get(this.builder);
    if (spec && !nested) {
      // Before LangGraph writes anything: a refused run leaves no checkpoint.
      const refusal = refuseRunChoices(spec, choicesOf(options));
      if (refusal) throw refusal;
    }
    const configurable = options?.configurable as Record<string, unknown> | undefined;
    // A run given scripts as its stand-in keeps its place in them as a graph given scripts does.
    const book = standInBook(runStandIn(configurable)) ?? scriptBooks.get(this.builder);
    if (!book || configurable?.[SCRIPT_RUN_KEY] !== undefined) {
      // A subgraph's models count their turns towards the step of the parent's task that runs it.
      const step = options?.metadata?.langgraph_step;
      const rooted =
        nested && configurable?.[SCRIPT_RUN_KEY] !== undefined && typeof step === "number"
          ? { ...options, configurable: { [SCRIPT_ROOT_STEP_KEY]: step, ...configurable } }
          : options;
      yield* this.checkedStream(input, rooted);
      return;
    }
    const saver = this.checkpointer instanceof BaseCheckpointSaver ? this.checkpointer : undefined;
    const { readPositions, keepPositions, keepStepPositions } = await import(
      "./script-positions.js"
    );
    const start = saver ? await readPositions(saver, configurable) : { positions: {} };
    const run = new ScriptRun(start.positions, book);
    try {
      yield* this.checkedStream(input, {
        ...options,
        configurable: { ...configurable, [SCRIPT_RUN_KEY]: run },
      });
    } finally {
      if (saver) {
        const unchangedAt = run.moved() ? undefined : start.checkpointId;
        await keepPositions(saver, configurable, run.positions(), unchangedAt);
        if (run.moved())
          await keepStepPositions(
            saver,
            configurable,
            (step) => run.positionsAt(step),
            start.checkpointId,
          );
      }
    }
  }

  /**
   * LangGraph's recursion error as graphspec's `recursion-limit`, and its EmptyInputError (no
   * input and no checkpoint to continue) as `invalid-input`.
   */
  private async *checkedStream(input: any, options?: any): AsyncGenerator<any> {
    const nested = options?.configurable?.__pregel_task_id !== undefined;
    try {
      yield* super._streamIterator(input, options);
    } catch (e) {
      if ((e as Error)?.name === "GraphRecursionError" && !nested) {
        throw new GraphspecRunError("recursion-limit", firstLine(e), {
          hint: "raise `limits.recursion` in the spec or the run's `recursionLimit`, or check the loop's exit condition",
          cause: e,
        });
      }
      if ((e as Error)?.name !== "EmptyInputError") throw e;
      throw new GraphspecRunError(
        "invalid-input",
        "the run's input is empty, and there is no checkpoint to continue from",
        {
          hint: "pass the graph's input, or a `thread_id` of a thread that has run before",
          cause: e,
        },
      );
    }
  }
}

/** Whether each compiled graph (by builder) can pause a run for a person. */
const pausing = new WeakMap<object, boolean>();

/** Records whether `graph` can pause a run for a person (compile.ts works it out). */
export function markPausing(graph: SpecGraph, pauses: boolean): void {
  pausing.set(graph.builder, pauses);
}

/**
 * Whether a run of `graph` can pause for a person: an `interrupt` node, an agent with `approve`,
 * a breakpoint, or a subgraph that can — so a paused run needs durable checkpoints.
 */
export function canPause(graph: SpecGraph): boolean {
  return pausing.get(graph.builder) ?? false;
}

/** Gives the graph's runs `scripts`: each run takes its turns from its own place in them. */
export function useScripts(graph: SpecGraph, scripts: ScriptQueues): void {
  scriptBooks.set(graph.builder, scripts);
}

/**
 * Makes a freshly compiled graph a SpecGraph that checks its input with `guard`, and a run's
 * choices (model, recursion limit, breakpoints) against `spec`.
 */
export function guardInput(
  graph: CompiledStateGraph<never, never>,
  inputKeys: readonly string[],
  guard: WriteGuard,
  spec: GraphSpec,
): SpecGraph {
  specs.set(graph.builder, spec);
  const accepted = new Set(inputKeys);
  const who = { label: "the run's input", code: "invalid-input" as const };
  inputChecks.set(graph.builder, (input) => {
    // null continues from a checkpoint; a Command resumes (its update was written by a person or program on purpose).
    if (input === null || input === undefined || isCommand(input)) return input;
    if (!isObject(input)) {
      throw new GraphspecRunError(
        "invalid-input",
        `the run's input must be a mapping from state channels to values, not ${preview(input)}`,
        {
          hint: `pass an object such as \`{ ${inputKeys[0] ?? "key"}: … }\``,
        },
      );
    }
    for (const key of Object.keys(input)) {
      if (!accepted.has(key)) {
        throw new GraphspecRunError(
          "invalid-input",
          `the run's input has \`${key}\`, which the graph does not accept`,
          {
            field: key,
            hint:
              didYouMean(key, inputKeys) ??
              `the graph's input keys: ${inputKeys.map((k) => `\`${k}\``).join(", ")}`,
          },
        );
      }
    }
    return guard(input, who);
  });
  Object.setPrototypeOf(graph, SpecGraph.prototype);
  return graph as unknown as SpecGraph;
}
