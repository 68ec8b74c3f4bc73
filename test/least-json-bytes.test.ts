/**
 * The state bound refuses from leastJsonBytes's count before serializing (checkpoint-bounds.ts),
 * so the count must never be more than the JSON it stands for: a count over it would refuse a
 * state within the limit.
 */
import { describe, expect, it } from "vitest";
import { leastJsonBytes } from "../src/run/least-json-bytes.js";

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
];

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
    const cycle: Record<string, unknown> = { a: "b" };
    cycle.self = cycle;
    expect(leastJsonBytes(cycle, Number.POSITIVE_INFINITY)).toBeGreaterThan(0);
  });
});
