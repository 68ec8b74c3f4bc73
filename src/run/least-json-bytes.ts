/**
 * How many bytes a value's JSON takes at least, counted without serializing it: the state bound
 * (checkpoint-bounds.ts) refuses a state or a step's writes from this count when it is already
 * over the limit. Serializing to measure built the whole over-limit text first — a state that
 * doubles each step was a 16 MiB string and its 16 MiB of UTF-8 at the step refused, and a list of
 * 2,048 references to one 512 KiB string (a few KiB of memory) is 1 GiB of JSON, past the longest
 * string V8 can make: the measure threw `Invalid string length` instead of `state-too-large`.
 *
 * A lower bound of what a JSON serializer writes, in UTF-8: a string's length in UTF-16 code units
 * (each is at least one byte, escapes are longer) and its quotes, a number's one digit, `true`,
 * `false` and `null`, plain arrays and objects with their brackets, keys, colons and commas.
 * Anything else (class instances such as chat messages, maps, dates, typed arrays) counts nothing:
 * the serializer decides what they become. Every reference to a shared value is counted, as the
 * serializer writes it each time; the count stops once it passes `stopAbove`, so a value that
 * refers to itself or is shared exponentially deep ends the walk as soon as it is over.
 */
export function leastJsonBytes(value: unknown, stopAbove: number): number {
  return measureJson(value, stopAbove).bytes;
}

/**
 * `leastJsonBytes`, and in the same walk whether `value` is plain JSON as plain-serde.ts's
 * `isPlainJson` decides it (an object or array of objects, arrays, strings, numbers, booleans and
 * null, no `undefined`, no holes, under 256 levels deep): checkpoint-bounds.ts then serializes it
 * with JSON.stringify without walking it a second time. `plain` is false for anything else, and
 * when the count stopped past `stopAbove`.
 */
export function measureJson(value: unknown, stopAbove: number): { bytes: number; plain: boolean } {
  let bytes = 0;
  let plain = value !== null && typeof value === "object";
  const pending: unknown[] = [value];
  // Containers being walked, for cycles: a value inside itself counts once (the serializer
  // either throws or writes a marker).
  const open = new Set<object>();
  const closing = Symbol("closing");
  while (pending.length && bytes <= stopAbove) {
    const v = pending.pop();
    if (v === closing) {
      open.delete(pending.pop() as object);
      continue;
    }
    switch (typeof v) {
      case "string":
        bytes += v.length + 2;
        continue;
      case "number":
        bytes += 1;
        continue;
      case "boolean":
        bytes += 4;
        continue;
      case "object":
        break;
      default:
        // undefined (an array's hole too), a function, a symbol, a bigint
        plain = false;
        continue;
    }
    if (v === null) {
      bytes += 4;
      continue;
    }
    if (open.has(v) || !plainContainer(v)) {
      plain = false;
      continue;
    }
    // The containers open are the ones `v` is in: its depth.
    if (open.size >= MAX_PLAIN_DEPTH) plain = false;
    open.add(v);
    pending.push(v, closing);
    if (Array.isArray(v)) {
      bytes += 1 + Math.max(v.length, 1);
      if (bytes > stopAbove) break;
      for (const item of v) pending.push(item);
    } else {
      bytes += 1;
      for (const key of Object.keys(v)) {
        const item = (v as Record<string, unknown>)[key];
        if (item === undefined || typeof item === "function" || typeof item === "symbol") {
          plain = false;
          continue;
        }
        // `"key":` and its comma (or the closing brace)
        bytes += key.length + 4;
        pending.push(item);
      }
    }
  }
  return { bytes, plain: plain && bytes <= stopAbove };
}

/** As plain-serde.ts's MAX_DEPTH: deeper is left to the serializer's own way. */
const MAX_PLAIN_DEPTH = 256;

/** An array, or an object of `Object`'s own (or none) without a `toJSON` of its own. */
function plainContainer(v: object): boolean {
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && !("toJSON" in v);
}
