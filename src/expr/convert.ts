/**
 * Values across the boundary between graphspec (JSON-like JS values) and cel-js (ints are
 * BigInt, doubles are numbers).
 *
 * In: where the declared type says `integer`, whole numbers become ints; where it says
 * `number`, numbers stay doubles; where nothing is declared (`any`, open objects, tool results)
 * safe whole numbers become ints and others doubles — so `state.count + 1` works on JSON data.
 * Out: ints become numbers, bytes base64 text, timestamps ISO text, durations "1.5s" text.
 */
import { Optional } from "@marcbachmann/cel-js";
import { UnsignedInt } from "@marcbachmann/cel-js/evaluator";
import { EXPR_LIMITS } from "./limits.js";
import type { ExprType } from "./types.js";

/** A value that cannot cross the boundary; the caller wraps it with the expression. */
export class ConversionError extends Error {
  override readonly name = "ConversionError";
}

const isPlainObject = (v: object): v is Record<string, unknown> => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * `out[key] = value` with `key` `__proto__` sets `out`'s prototype instead of adding a key: a value
 * holding one (JSON input may) would come out as an object with a foreign prototype. Refused.
 */
const setEntry = (out: Record<string, unknown>, key: string, value: unknown) => {
  if (key === "__proto__")
    throw new ConversionError("a map key `__proto__` cannot cross into or out of an expression");
  out[key] = value;
};

const tooDeep = (depth: number) => {
  if (depth > EXPR_LIMITS.maxValueDepth)
    throw new ConversionError(
      `value is nested more than ${EXPR_LIMITS.maxValueDepth} levels deep (or refers to itself)`,
    );
};

/** A run-time value as cel-js should see it where `type` is declared. */
export function toCel(value: unknown, type: ExprType, depth = 0): unknown {
  tooDeep(depth);
  if (value === undefined || value === null) return null;
  switch (type.kind) {
    case "int":
    case "uint":
      return typeof value === "number" && Number.isSafeInteger(value) ? BigInt(value) : value;
    case "double":
      return typeof value === "bigint" ? Number(value) : value;
    case "list":
      return Array.isArray(value)
        ? convertList(value, (v) => toCel(v, type.item, depth + 1))
        : untyped(value, depth);
    case "map":
      return typeof value === "object" && !Array.isArray(value)
        ? mapValues(value, () => type.value, depth)
        : untyped(value, depth);
    case "record":
      return typeof value === "object" && !Array.isArray(value)
        ? mapValues(value, (k) => type.fields[k], depth)
        : untyped(value, depth);
    default:
      return untyped(value, depth);
  }
}

function untyped(value: unknown, depth: number): unknown {
  tooDeep(depth);
  if (typeof value === "number") return Number.isSafeInteger(value) ? BigInt(value) : value;
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return convertList(value, (v) => untyped(v, depth + 1));
  if (value instanceof Map || isPlainObject(value)) return mapValues(value, () => undefined, depth);
  return value;
}

/**
 * A list with each item converted: the list itself when no item changes (strings, booleans,
 * doubles), not a copy of it at every evaluation.
 */
function convertList(value: readonly unknown[], convert: (v: unknown) => unknown): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    const c = convert(v);
    if (out) out.push(c);
    else if (c !== v) {
      out = value.slice(0, i);
      out.push(c);
    }
  }
  return out ?? (value as unknown[]);
}

/** A plain object with each value converted; undefined values are left out so `has()` is false. */
function mapValues(
  value: object,
  typeOf: (key: string) => ExprType | undefined,
  depth: number,
): unknown {
  const entries =
    value instanceof Map
      ? [...value.entries()].map(([k, v]) => [String(k), v] as const)
      : isPlainObject(value)
        ? Object.entries(value)
        : undefined;
  if (!entries) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) {
    if (v === undefined) continue;
    const t = typeOf(k);
    setEntry(out, k, t ? toCel(v, t, depth + 1) : untyped(v, depth + 1));
  }
  return out;
}

/** A cel-js result as a JSON-like value. */
export function fromCel(value: unknown, depth = 0): unknown {
  tooDeep(depth);
  switch (typeof value) {
    case "bigint":
      if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER))
        throw new ConversionError(`the integer ${value} is too large for a JSON number`);
      return Number(value);
    case "string":
    case "number":
    case "boolean":
      return value;
    case "undefined":
      return null;
    case "object":
      break;
    default:
      throw new ConversionError(`a ${typeof value} is not a value`);
  }
  if (value === null) return null;
  if (Array.isArray(value)) return value.map((v) => fromCel(v, depth + 1));
  if (value instanceof UnsignedInt) return fromCel(value.value, depth);
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new ConversionError("the timestamp is invalid");
    return value.toISOString();
  }
  if (value instanceof Optional) return value.hasValue() ? fromCel(value.value(), depth) : null;
  if (value instanceof Map || isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    const entries = value instanceof Map ? value.entries() : Object.entries(value);
    for (const [k, v] of entries)
      if (v !== undefined) setEntry(out, String(k), fromCel(v, depth + 1));
    return out;
  }
  // Durations print as "1.5s", CEL types as "Type<int>".
  const text = String(value);
  return text.startsWith("Type<") && text.endsWith(">") ? text.slice(5, -1) : text;
}
