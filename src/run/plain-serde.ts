/**
 * LangGraph's JSON serializer (JsonPlusSerializer), with a fast path for plain data. It writes
 * through fast-safe-stringify with a replacer called on every value (to encode `undefined`, Sets,
 * Maps, Errors, …), and reads back through an async reviver that awaits a promise per value of
 * the tree (to rebuild them, and LangChain's messages): reading a 2 MB state took a server's
 * thread for up to 360 ms in issue 23's soak, no other run or request served meanwhile.
 *
 * Most states are plain JSON: objects, arrays, strings, finite numbers, booleans, null. For those
 * both give exactly what JSON.stringify and JSON.parse give, so:
 * - writing: a value found plain (one walk, no allocation) is written by JSON.stringify, the same
 *   bytes; anything else (a message, `undefined`, a Set, a cycle) goes the serializer's way;
 * - reading: the text is parsed by JSON.parse, and the reviver runs only when the tree holds a
 *   record it would rebuild (an object whose `lc` is 1 or 2, as all of them are) or a `__proto__`
 *   key (which it turns into a prototype), on the text again.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";

type Dumped = [string, Uint8Array];

/** Deeper than this is not walked: the serializer's own way (which finds cycles) decides. */
const MAX_DEPTH = 256;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const patched = new WeakSet<object>();

/** Whether JSON.stringify writes `value` exactly as the serializer's replacer would. */
export function isPlainJson(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v === "string" || typeof v === "boolean") continue;
    if (typeof v === "number") continue;
    if (typeof v !== "object" || depth >= MAX_DEPTH) return false;
    if (Array.isArray(v)) {
      // A hole reads as `undefined`, which is not plain.
      for (let i = 0; i < v.length; i++) {
        const item = v[i];
        if (item === null || typeof item === "string" || typeof item === "number") continue;
        stack.push([item, depth + 1]);
      }
      continue;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return false;
    for (const item of Object.values(v)) {
      if (item === null || typeof item === "string" || typeof item === "number") continue;
      stack.push([item, depth + 1]);
    }
  }
  return true;
}

/** Whether a parsed tree holds a record LangGraph's reviver rebuilds (`lc` 1 or 2). */
function needsReviving(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (const item of v) if (item !== null && typeof item === "object") stack.push(item);
      continue;
    }
    const lc = (v as { lc?: unknown }).lc;
    if (Object.hasOwn(v, "lc") && (lc === 1 || lc === 2)) return true;
    // The reviver assigns keys one by one: a `__proto__` key becomes the object's prototype there.
    if (Object.hasOwn(v, "__proto__")) return true;
    for (const item of Object.values(v))
      if (item !== null && typeof item === "object") stack.push(item);
  }
  return false;
}

/**
 * Gives the saver's JsonPlusSerializer the fast paths (in place; once; other serializers
 * untouched). Whether its serializer has them: then a plain value's bytes are JSON.stringify's.
 */
export function plainSerde(saver: BaseCheckpointSaver): boolean {
  const serde = saver.serde as BaseCheckpointSaver["serde"] & {
    loadsTyped(type: string, data: Uint8Array | string): Promise<unknown>;
  };
  if (patched.has(serde)) return true;
  if (serde.constructor.name !== "JsonPlusSerializer") return false;
  patched.add(serde);
  const dumps = serde.dumpsTyped.bind(serde) as (value: unknown) => Promise<Dumped>;
  const loads = serde.loadsTyped.bind(serde);
  serde.dumpsTyped = async (value: unknown) =>
    value !== null &&
    typeof value === "object" &&
    !(value instanceof Uint8Array) &&
    isPlainJson(value)
      ? ["json", encoder.encode(JSON.stringify(value))]
      : dumps(value);
  serde.loadsTyped = async (type: string, data: Uint8Array | string) => {
    if (type !== "json") return loads(type, data);
    const value = JSON.parse(typeof data === "string" ? data : decoder.decode(data));
    return needsReviving(value) ? loads(type, data) : value;
  };
  return true;
}
