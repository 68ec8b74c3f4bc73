/**
 * The compiled graph: LangGraph's CompiledStateGraph, with a run's input checked before the first
 * step (LangGraph checks nothing for Annotation state, and drops keys that are not channels).
 * The check lives on the class, keyed by the builder, so copies LangGraph makes (`withConfig`)
 * keep it.
 */
import { CompiledStateGraph, isCommand } from "@langchain/langgraph";
import { didYouMean } from "../diagnostics/suggest.js";
import { isObject } from "../spec/data.js";
import { GraphspecRunError } from "./graphspec-run-error.js";
import { preview } from "./preview.js";
import type { WriteGuard } from "./write-guard.js";

type InputCheck = (input: unknown) => unknown;
const inputChecks = new WeakMap<object, InputCheck>();

export class SpecGraph extends CompiledStateGraph<any, any, any, any, any, any, any, any, any> {
  override async _validateInput(input: any): Promise<any> {
    const checked = await super._validateInput(input);
    const check = inputChecks.get(this.builder);
    return check ? check(checked) : checked;
  }

  /** LangGraph's EmptyInputError, for a run given no input and no checkpoint to continue, in graphspec's terms. */
  override async *_streamIterator(input: any, options?: any): AsyncGenerator<any> {
    try {
      yield* super._streamIterator(input, options);
    } catch (e) {
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

/** Makes a freshly compiled graph a SpecGraph that checks its input with `guard`. */
export function guardInput(
  graph: CompiledStateGraph<never, never>,
  inputKeys: readonly string[],
  guard: WriteGuard,
): SpecGraph {
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
