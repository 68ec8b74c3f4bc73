/**
 * The state bound refuses from leastJsonBytes's count before serializing (checkpoint-bounds.ts),
 * so the count must never be more than the JSON it stands for: a count over it would refuse a
 * state within the limit. The same walk says whether a value is plain JSON, then written with
 * JSON.stringify unwalked: it must say so exactly when the serializer's own test does (a value it
 * calls plain that is not would be stored without what the serializer keeps of it).
 */
import { describe, expect, it } from "vitest";
import { leastJsonBytes, measureJson } from "../src/run/least-json-bytes.js";
import { isPlainJson } from "../src/run/plain-serde.js";

const utf8 = (v: unknown) => Buffer.byteLength(JSON.stringify(v) ?? "");
const shared = { s: "x".repeat(100) };

const values: [string, unknown][] = [
  ["empty", [{}, [], "", 0, null, true, false]],
  ["escapes and non-ASCII", ['"\\\n\t\u0001', "é€😀", "\ud800 lone surrogate"]],
  ["numbers", [0, -1.5e-300, 123456789, Number.NaN, Number.POSITIVE_INFINITY]],
  ["undefined, functions", { a: undefined, b: () => 1, c: [undefined, () => 1], d: Symbol("s") }],
  ["nested", { a: { b: { c: [[[{ d: "e" }]]] } }, "key with spaces": [1, [2, [3]]] }],
  ["shared references", { a: shared, b: [shared, shared, shared] }],
  ["class instances and toJSON", { d: new Date(0), m: new Map([[1, 2]]), t: { toJSON: () => "" } }],
  ["null prototype", Object.assign(Object.create(null), { a: "b" })],
  // Keys the serializer leaves out are not counted: `{}` is all of their JSON.
  ["only functions and symbols", { f: () => 1, s: Symbol("s") }],
  // A toJSON is what the serializer writes, not the object's other keys.
  ["toJSON beside data", { v: { toJSON: () => 1, big: "x".repeat(100) } }],
];

const nested = (depth: number, leaf: unknown): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? { k: v } : [v];
  return v;
};
const cycle: Record<string, unknown> = { a: "b" };
cycle.self = cycle;
class Point {
  x = 1;
}
const plainOrNot: [string, unknown][] = [
  ...values,
  ["a hole", Object.assign(new Array(3), { 0: 1, 2: 3 })],
  ["undefined in a list", [1, undefined]],
  ["undefined in an object", { a: 1, b: undefined }],
  ["a function", { f: () => 1 }],
  ["a bigint", { n: 1n }],
  ["a class instance", { p: new Point() }],
  ["a Uint8Array", new Uint8Array(2)],
  ["a Uint8Array inside", { b: new Uint8Array(2) }],
  ["a Set", { s: new Set([1]) }],
  ["a cycle", cycle],
  ["255 levels", nested(255, "leaf")],
  ["256 levels", nested(256, "leaf")],
  ["257 levels", nested(257, "leaf")],
  ["256 levels to a number", nested(256, 1)],
  [
    "plain records",
    Array.from({ length: 50 }, (_, i) => ({ id: i, tags: ["a"], ok: i % 2 === 0 })),
  ],
  ["a string", "just text"],
  ["null", null],
  ["a number", 3],
];

describe("measureJson's plain", () => {
  it.each(plainOrNot)("is what the serializer's test says (%s)", (_name, value) => {
    const plain =
      value !== null &&
      typeof value === "object" &&
      !(value instanceof Uint8Array) &&
      isPlainJson(value);
    expect(measureJson(value, Number.POSITIVE_INFINITY).plain).toBe(plain);
  });

  it("is false once the count stops past the limit", () => {
    expect(measureJson({ a: "x".repeat(100) }, 10).plain).toBe(false);
  });
});

describe("leastJsonBytes", () => {
  it.each(values)("is at most the UTF-8 bytes of the JSON (%s)", (_name, value) => {
    expect(leastJsonBytes(value, Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(utf8(value));
  });

  it("counts plain JSON data close to its size", () => {
    const data = { list: Array.from({ length: 1000 }, (_, i) => `item-${i}`), n: 1, ok: true };
    const count = leastJsonBytes(data, Number.POSITIVE_INFINITY);
    expect(count).toBeGreaterThan(utf8(data) * 0.8);
  });

  it("stops once past the limit, and ends on a value inside itself", () => {
    // 2^64 references deep: the walk ends only because it stops past the limit.
    let doubled: unknown = "y".repeat(1000);
    for (let i = 0; i < 64; i++) doubled = [doubled, doubled];
    const count = leastJsonBytes(doubled, 1_000_000);
    expect(count).toBeGreaterThan(1_000_000);
    expect(count).toBeLessThan(1_010_000);
    // The same through objects, which have no stop of their own inside the walk.
    let doubledObject: unknown = "y".repeat(1000);
    for (let i = 0; i < 64; i++) doubledObject = { a: doubledObject, b: doubledObject };
    expect(leastJsonBytes(doubledObject, 1_000_000)).toBeLessThan(1_010_000);
    const cycle: Record<string, unknown> = { a: "b" };
    cycle.self = cycle;
    expect(leastJsonBytes(cycle, Number.POSITIVE_INFINITY)).toBeGreaterThan(0);
  });
});

describe("leastJsonBytes's count", () => {
  // What the count is documented to be (least-json-bytes.ts): a string's UTF-16 length and its
  // quotes, a number's one digit, 4 for true, false and null, brackets, keys, colons and commas.
  // A count below it refuses nothing wrongly but lets an over-limit value be serialized whole.
  it.each([
    ["a string", "abc", 5],
    ["a number", 12345, 1],
    ["true", true, 4],
    ["false", false, 4],
    ["null", null, 4],
    ["an empty list", [], 2],
    ["a list", ["a", 1, null], 1 + 3 + 3 + 1 + 4],
    ["an object", { ab: "c", d: [] }, 1 + (2 + 4 + 3) + (1 + 4 + 2)],
    ["nested", { k: [{ v: true }] }, 1 + (1 + 4) + 2 + 1 + (1 + 4) + 4],
  ])("is exact for %s", (_name, value, count) => {
    expect(leastJsonBytes(value, Number.POSITIVE_INFINITY)).toBe(count);
  });

  it("is the JSON's own length for ASCII data of strings, one-digit numbers, true and null", () => {
    const data = { id: "t-1", items: [{ n: 7, ok: true, note: null }, ["x", "yz"], []] };
    expect(leastJsonBytes(data, Number.POSITIVE_INFINITY)).toBe(utf8(data));
  });

  it("goes to the end at exactly the limit, and stops past it just above any lower limit", () => {
    const data = { list: ["a", "bc"], n: 1 };
    const exact = utf8(data);
    expect(measureJson(data, exact)).toEqual({ bytes: exact, plain: true });
    for (let limit = 0; limit < exact; limit++) {
      const { bytes, plain } = measureJson(data, limit);
      expect(bytes).toBeGreaterThan(limit);
      expect(bytes).toBeLessThanOrEqual(exact);
      expect(plain).toBe(false);
    }
  });
});
