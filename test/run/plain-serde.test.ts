/**
 * The checkpointers' fast path for plain states (src/run/plain-serde.ts) against LangGraph's own
 * JsonPlusSerializer: for every value, the same bytes written and the same value read back —
 * plain JSON through the fast path, everything it must leave to LangGraph (messages, `undefined`,
 * Sets, Maps, holes, Dates, cycles, `lc` records, deep nesting) through LangGraph's. Then through
 * the executor on SQLite: a state with messages and plain values comes back whole.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage, HumanMessage, isBaseMessage } from "@langchain/core/messages";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { afterAll, describe, expect, it } from "vitest";
import { plainSerde } from "../../src/run/plain-serde.js";

const decoder = new TextDecoder();

function pair() {
  const theirs = new JsonPlusSerializer();
  const ours = new JsonPlusSerializer();
  plainSerde({ serde: ours } as never);
  return { theirs, ours };
}

const cyclic: Record<string, unknown> = { a: 1 };
cyclic.self = cyclic;
const shared = { s: "x" };

const VALUES: [string, unknown][] = [
  [
    "plain JSON",
    { n: 1, f: 1.5, s: 'a"\\\n\u0001é', b: true, z: null, l: [1, "two", { three: 3 }] },
  ],
  ["numbers JSON has no literal for", { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, neg0: -0 }],
  ["a list at the top", [1, 2, [3, [4]]]],
  ["a shared object", { a: shared, b: [shared, shared] }],
  ["undefined in an object", { u: undefined, v: 1 }],
  ["undefined in a list", [1, undefined, 3]],
  // biome-ignore lint/suspicious/noSparseArray: the hole is the case
  ["a hole in a list", [1, , 3]],
  ["a Set and a Map", { s: new Set([1, 2]), m: new Map([["k", 1]]) }],
  ["a Date", { d: new Date(0) }],
  ["a RegExp and an Error", { r: /a+/g, e: new Error("boom") }],
  ["bytes", { b: new Uint8Array([1, 2, 3]) }],
  ["messages", { messages: [new HumanMessage("hi"), new AIMessage({ content: "yo", id: "m1" })] }],
  [
    "an lc record of no known class",
    { x: { lc: 1, type: "constructor", id: ["Nope"], kwargs: {} } },
  ],
  [
    "an lc record of a message",
    {
      x: {
        lc: 1,
        type: "constructor",
        id: ["langchain_core", "messages", "HumanMessage"],
        kwargs: { content: "hi" },
      },
    },
  ],
  ["an lc 2 undefined record as data", { x: { lc: 2, type: "undefined" } }],
  ["an object without a prototype", Object.assign(Object.create(null), { a: 1 })],
  ["a cycle", cyclic],
  ["deep nesting", JSON.parse(`${"[".repeat(400)}${"]".repeat(400)}`)],
  ["a __proto__ key", JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')],
];

describe("plain states through the fast path, the rest through LangGraph's serializer", () => {
  for (const [name, value] of VALUES)
    it(`${name}: the same bytes written, the same value read`, async () => {
      const { theirs, ours } = pair();
      const [theirType, theirBytes] = await theirs.dumpsTyped(value);
      const [ourType, ourBytes] = await ours.dumpsTyped(value);
      expect(ourType).toBe(theirType);
      expect(decoder.decode(ourBytes)).toBe(decoder.decode(theirBytes));
      // Read alike, or refused alike (LangGraph's loader refuses a record naming no known class).
      const read = (serde: JsonPlusSerializer, type: string, bytes: Uint8Array) =>
        serde.loadsTyped(type, bytes).then(
          (v) => ({ v }),
          (e: Error) => ({ refused: e.message }),
        );
      const theirs_ = await read(theirs, theirType, theirBytes);
      const ours_ = await read(ours, ourType, ourBytes);
      expect(ours_).toEqual(theirs_);
      const theirValue = "v" in theirs_ ? theirs_.v : undefined;
      const ourValue = "v" in ours_ ? ours_.v : undefined;
      // Revived alike: messages are messages, Sets are Sets.
      const kinds = (v: unknown) =>
        JSON.stringify(v, (_, x) =>
          isBaseMessage(x)
            ? `message:${x.getType()}`
            : x instanceof Set || x instanceof Map
              ? x.constructor.name
              : x,
        );
      expect(kinds(ourValue)).toBe(kinds(theirValue));
    });
});

describe("through the executor on SQLite", () => {
  const tmp = mkdtempSync(join(tmpdir(), "graphspec-plain-serde-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("a plain state and its history read back whole", async () => {
    const { createExecutor } = await import("../../src/index.js");
    const exec = createExecutor({
      dir: join(import.meta.dirname, "../fixtures/server/graphs"),
      checkpointer: "sqlite",
      sqlitePath: join(tmp, "state.db"),
    });
    try {
      await exec.run("three-steps", { threadId: "t", input: {} });
      const state = await exec.state("t");
      expect(state?.values).toMatchObject({ n: 3, path: ["one", "two", "three"] });
      const history = (await exec.history("t"))!;
      expect(history.map((h) => h.values.n)).toEqual([3, 2, 1, 0, 0].slice(0, history.length));
    } finally {
      await exec.close();
    }
  });
});
