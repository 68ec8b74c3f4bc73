/**
 * The built-in reducers, as docs/spec.md defines them. Each takes the channel's current value
 * (`null` after a reset; never undefined: LangGraph stores a channel's first write without calling
 * the reducer) and the written value. Node outputs are normalised before they get here
 * (write-guard.ts), but the reducers accept every form the language allows, so a write that bypasses
 * a node (an input, a `Command` from user code) is combined the same way.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { messagesStateReducer } from "@langchain/langgraph";
import { isObject } from "../spec/data.js";

export type BuiltinReducer =
  | "replace"
  | "append"
  | "union"
  | "merge"
  | "sum"
  | "max"
  | "min"
  | "messages";

/** A written value as a list of items: a list is spread, anything else is one item. */
export const asItems = (value: unknown): unknown[] =>
  value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];

/** A canonical JSON text of a value (object keys sorted), so equal JSON values compare equal. */
export function jsonKey(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isObject(v) && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** The items of a list without repeats (compared as JSON values), first occurrence kept. */
export function uniqueItems(items: readonly unknown[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const item of items) {
    const key = jsonKey(item);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

const numeric = (v: unknown): number => (typeof v === "number" ? v : 0);

export const REDUCERS: Readonly<
  Record<Exclude<BuiltinReducer, "replace">, (current: unknown, written: unknown) => unknown>
> = {
  append: (current, written) => [...asItems(current), ...asItems(written)],
  union: (current, written) => uniqueItems([...asItems(current), ...asItems(written)]),
  merge: (current, written) => ({
    ...(isObject(current) ? current : {}),
    ...(isObject(written) ? written : {}),
  }),
  sum: (current, written) => numeric(current) + numeric(written),
  max: (current, written) =>
    typeof current === "number" ? Math.max(current, numeric(written)) : written,
  min: (current, written) =>
    typeof current === "number" ? Math.min(current, numeric(written)) : written,
  messages: (current, written) =>
    messagesStateReducer(
      (Array.isArray(current) ? current : []) as BaseMessage[],
      written as Parameters<typeof messagesStateReducer>[1],
    ),
};
