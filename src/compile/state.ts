/**
 * The state: one LangGraph channel per declared field, with the declared reducer and default,
 * as an `Annotation.Root` — plus the input and output schemas that restrict what a run takes and
 * returns. The same channel objects are shared by the three roots, which LangGraph requires.
 */
import { Annotation, type AnnotationRoot, type StateDefinition } from "@langchain/langgraph";
import { type BaseChannel, LastValue } from "@langchain/langgraph/channels";
import { reducerMisfit } from "../spec/reducer-fit.js";
import type { GraphSpec, StateField } from "../spec/spec-types.generated.js";
import { CompileError } from "./compile-error.js";
import { GraphspecRunError } from "./graphspec-run-error.js";
import { REDUCERS } from "./reducers.js";
import { fieldJsonSchema, valueCheck } from "./value-check.js";

/** An `Annotation.Root` of channels whose names and value types the spec gives. */
export type StateRoot = AnnotationRoot<StateDefinition>;

export type ReducerFn = (current: unknown, written: unknown) => unknown;

/** The reducer kind of a field: `messages` for message channels, `replace` when none is given. */
export function reducerOf(field: StateField): string | ReducerFn {
  if (typeof field.reducer === "string") return field.reducer;
  if (field.reducer && typeof field.reducer === "object") return "custom";
  return field.type === "messages" ? "messages" : "replace";
}

/** A fresh copy of a JSON default for each run, so runs never share (and mutate) one object. */
const factoryOf = (value: unknown): (() => unknown) => {
  const text = JSON.stringify(value);
  return () => JSON.parse(text);
};

/**
 * What `default-type` and `reducer-type` report, refused again here for a compile without
 * validate: a CompileError naming the channel, never the TypeError of a first write.
 */
function refuseField(name: string, field: StateField, kind: string | ReducerFn): void {
  if (name.startsWith("__")) {
    // LangGraph's own channels are all `__…`: one of ours by such a name is refused or overrun.
    throw new CompileError(
      `state channel \`${name}\`: names starting with \`__\` belong to LangGraph [reserved-name]`,
    );
  }
  const misfit = reducerMisfit(field);
  if (misfit) {
    throw new CompileError(
      `state channel \`${name}\`: ${misfit.message} (${misfit.hint}) [reducer-type]`,
    );
  }
  if (!Object.hasOwn(field, "default") || kind === "messages") return;
  const [problem] = valueCheck(fieldJsonSchema(field))(field.default, `state.${name}.default`);
  if (problem)
    throw new CompileError(`state channel \`${name}\`: ${problem.message} [default-type]`);
}

/**
 * A reducer of the spec's own, whose throw names the channel: LangGraph calls reducers after the
 * step's nodes finished, so its error would otherwise name no node, no channel and no module.
 */
function reportedAs(channel: string, reducer: ReducerFn): ReducerFn {
  return (current, written) => {
    try {
      return reducer(current, written);
    } catch (e) {
      throw new GraphspecRunError(
        "node-error",
        `the reducer of state channel \`${channel}\` threw: ${(e as Error)?.message ?? String(e)}`,
        {
          hint: "fix the reducer's module, or the value written to the channel; the thread keeps the state before the step",
        },
      );
    }
  };
}

function channelFor(name: string, field: StateField, custom: ReducerFn | undefined): BaseChannel {
  const kind = reducerOf(field);
  const hasDefault = Object.hasOwn(field, "default");
  refuseField(name, field, kind);
  if (kind === "messages") {
    // A message channel always starts as a list (as LangGraph's MessagesAnnotation does):
    // LangGraph stores a channel's first write without calling the reducer, which would leave
    // plain strings and `{ role, content }` maps unconverted.
    const initial = factoryOf(hasDefault ? field.default : []);
    // Converted once now, so a default that is no list of messages is a CompileError here.
    try {
      if (!Array.isArray(initial())) throw new TypeError("not a list");
      REDUCERS.messages([], initial());
    } catch (e) {
      throw new CompileError(
        `state channel \`${name}\`: the default of a \`messages\` channel must be a list of messages, not ${JSON.stringify(field.default)} (${(e as Error).message}) [default-type]`,
      );
    }
    return Annotation({
      reducer: REDUCERS.messages,
      default: () => REDUCERS.messages([], initial()),
    });
  }
  if (kind === "replace") {
    // LastValue keeps LangGraph's InvalidUpdateError for two writes in one step.
    return new LastValue(hasDefault ? factoryOf(field.default) : undefined);
  }
  const builtIn = REDUCERS[kind as keyof typeof REDUCERS];
  const reducer = kind === "custom" && custom ? reportedAs(name, custom) : builtIn;
  if (!reducer) throw new Error(`no reducer for ${String(kind)}`);
  if (!hasDefault) return Annotation({ reducer });
  const initial = factoryOf(field.default);
  // A message channel's default is messages whoever combines its writes: the nodes that read
  // the channel (llm, agent, tools) take its items for chat messages.
  const start =
    field.type === "messages" && Array.isArray(initial())
      ? () => REDUCERS.messages([], initial())
      : initial;
  return Annotation({ reducer, default: start });
}

export interface StateSchemas {
  state: StateRoot;
  input: StateRoot | undefined;
  output: StateRoot | undefined;
}

/**
 * The graph's state, input and output schemas. `customReducers` holds the loaded functions of
 * `reducer: { module, export }` fields, by channel.
 */
export function buildStateSchemas(
  spec: GraphSpec,
  customReducers: ReadonlyMap<string, ReducerFn>,
): StateSchemas {
  const channels: Record<string, BaseChannel> = {};
  for (const [name, field] of Object.entries(spec.state)) {
    channels[name] = channelFor(name, field, customReducers.get(name));
  }
  // `input` and `output` name declared channels (validate() checks).
  const subset = (keys: readonly string[] | undefined) =>
    keys ? Annotation.Root(Object.fromEntries(keys.map((k) => [k, channels[k]!]))) : undefined;
  return {
    state: Annotation.Root(channels),
    input: subset(spec.input),
    output: subset(spec.output),
  };
}
