/**
 * About how many bytes of memory a JSON-like value takes in this process (V8 on a 64-bit Node,
 * without pointer compression): what a bound on values kept in memory must count. Their JSON
 * size does not: `[{},{},…]` is 3 bytes an item as JSON and ~60 in memory, so a bound of 256 MiB
 * "as JSON" let a tenant's events take gigabytes. Counted per reference: a value referred to
 * twice counts twice (more than it takes, never less), as its JSON does. Walked without
 * allocating anything but the walk's stack.
 */

/** A JSObject's header and its in-object slots, as `{}` gets them. */
const OBJECT = 56;
/** Each own property beyond: its slot, and its share of a dictionary when there are many. */
const PROPERTY = 16;
/** An array's header and its backing store's. */
const ARRAY = 32;
/** Each item: its slot. */
const ITEM = 8;
/** A string's header. */
const STRING = 24;
/** A number that is not a small integer is a boxed double. */
const HEAP_NUMBER = 16;
/** Deeper than this is counted as one object (the data kept is cut at 64 levels before). */
const MAX_DEPTH = 256;

/** A character past Latin-1: V8 keeps the string in two bytes a character. */
const TWO_BYTE = /[\u0100-\uffff]/;

export function valueMemory(value: unknown): number {
  let bytes = 0;
  // Values to count and their depths, side by side (no pair allocated per value).
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length) {
    const v = values.pop();
    const depth = depths.pop()!;
    if (typeof v === "string") {
      bytes += STRING + (TWO_BYTE.test(v) ? 2 * v.length : v.length);
      continue;
    }
    if (typeof v === "number") {
      if (!Number.isInteger(v) || Math.abs(v) >= 2 ** 31) bytes += HEAP_NUMBER;
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (depth >= MAX_DEPTH) {
      bytes += OBJECT;
      continue;
    }
    const items = Array.isArray(v) ? v : Object.values(v);
    bytes += Array.isArray(v) ? ARRAY + ITEM * items.length : OBJECT + PROPERTY * items.length;
    for (const item of items) {
      if (item === null || typeof item === "boolean" || typeof item === "undefined") continue;
      values.push(item);
      depths.push(depth + 1);
    }
  }
  return bytes;
}
