/**
 * Every value that enters the state — a node's update, a run's input — passes through here:
 * checked against the channel's declared type (LangGraph itself checks nothing, and drops keys
 * that are not channels) and put in the form the channel's reducer combines: `append`/`union`
 * writes become lists (LangGraph stores a channel's first write without calling the reducer, so
 * a bare item would otherwise stay bare), `null` resets any channel.
 */
import { isBaseMessage } from "@langchain/core/messages";
import { Overwrite } from "@langchain/langgraph";
import type { RunErrorCode } from "../diagnostics/run-error-catalog.js";
import { didYouMean } from "../diagnostics/suggest.js";
import { isObject } from "../spec/data.js";
import type { GraphSpec, StateField } from "../spec/spec-types.generated.js";
import { GraphspecRunError } from "./graphspec-run-error.js";
import { preview } from "./preview.js";
import { asItems, uniqueItems } from "./reducers.js";
import { reducerOf } from "./state.js";
import { fieldJsonSchema, type ValueCheck, valueCheck } from "./value-check.js";

/** Who is writing, for messages: `node \`x\`` or `the run's input`. */
export interface Writer {
  label: string;
  node?: string;
  /** The error code for what this writer gets wrong (default `invalid-write`). */
  code?: RunErrorCode;
}

type Normalize = (value: unknown, who: Writer) => unknown;

const invalid = (
  channel: string,
  who: Writer,
  value: unknown,
  problem: { message: string; hint?: string },
) =>
  new GraphspecRunError(
    who.code ?? "invalid-write",
    `${who.label} wrote ${preview(value)} to \`${channel}\`: ${problem.message}`,
    {
      ...(who.node ? { node: who.node } : {}),
      field: channel,
      hint:
        problem.hint ?? `write a value that matches the declaration of \`${channel}\` in \`state\``,
    },
  );

const checked =
  (channel: string, check: ValueCheck | undefined, subject = channel) =>
  (value: unknown, who: Writer): void => {
    const problem = check?.(value, subject)[0];
    if (problem) throw invalid(channel, who, value, problem);
  };

const optionalCheck = (schema: unknown): ValueCheck | undefined =>
  isObject(schema) || typeof schema === "boolean" ? valueCheck(schema) : undefined;

const isMessageLike = (v: unknown): boolean =>
  typeof v === "string" ||
  isBaseMessage(v) ||
  (isObject(v) && (typeof v.role === "string" || typeof v.type === "string") && "content" in v);

function normalizerFor(channel: string, field: StateField): Normalize {
  const reducer = reducerOf(field);
  const schema = fieldJsonSchema(field);
  switch (reducer) {
    case "replace": {
      const check = checked(channel, valueCheck(schema));
      return (value, who) => {
        check(value, who);
        return value;
      };
    }
    case "append":
    case "union": {
      const check = checked(channel, optionalCheck(field.items), `${channel}[]`);
      return (value, who) => {
        const items = asItems(value);
        for (const item of items) check(item, who);
        return reducer === "union" ? uniqueItems(items) : items;
      };
    }
    case "merge": {
      const { required: _required, ...partial } = schema;
      const check = checked(channel, valueCheck({ ...partial, type: "object" }));
      return (value, who) => {
        check(value, who);
        return value;
      };
    }
    case "sum":
    case "max":
    case "min": {
      const type = field.type === "integer" ? "integer" : "number";
      const check = checked(channel, valueCheck({ type }));
      return (value, who) => {
        check(value, who);
        return value;
      };
    }
    case "messages":
      return (value, who) => {
        for (const item of asItems(value)) {
          if (!isMessageLike(item))
            throw invalid(channel, who, item, {
              message: "a message channel takes messages, strings or `{ role, content }` maps",
            });
        }
        return value;
      };
    default:
      // A reducer of the user's own decides what it accepts.
      return (value) => value;
  }
}

/**
 * The update in the form the channels take, or a GraphspecRunError naming the writer, the channel
 * and the value. `allowed` narrows the channels this writer may write.
 */
export type WriteGuard = (
  update: Record<string, unknown>,
  who: Writer,
  allowed?: ReadonlySet<string>,
) => Record<string, unknown>;

export function writeGuard(spec: GraphSpec): WriteGuard {
  const normalizers = new Map<string, Normalize>();
  const replaces = new Set<string>();
  for (const [channel, field] of Object.entries(spec.state)) {
    normalizers.set(channel, normalizerFor(channel, field));
    if (reducerOf(field) === "replace") replaces.add(channel);
  }
  const channels = [...normalizers.keys()];
  return (update, who, allowed) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(update)) {
      if (value === undefined) continue;
      const normalize = normalizers.get(key);
      if (!normalize) {
        throw new GraphspecRunError(
          who.code ?? "invalid-write",
          `${who.label} wrote \`${key}\`, which is not a state channel`,
          {
            ...(who.node ? { node: who.node } : {}),
            field: key,
            hint:
              didYouMean(key, channels) ?? `declare \`${key}\` in \`state\`, or stop writing it`,
          },
        );
      }
      if (allowed && !allowed.has(key)) {
        throw new GraphspecRunError(
          "invalid-write",
          `${who.label} wrote \`${key}\`, which its \`writes\` list does not name`,
          {
            ...(who.node ? { node: who.node } : {}),
            field: key,
            hint: `add \`${key}\` to the node's \`writes\`, or stop writing it`,
          },
        );
      }
      // null resets a channel whatever its reducer (a reducer channel through LangGraph's Overwrite).
      if (value === null) out[key] = replaces.has(key) ? null : new Overwrite(null);
      else out[key] = normalize(value, who);
    }
    return out;
  };
}
