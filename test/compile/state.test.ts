/**
 * State channels as compiled: reducers checked against their definitions (docs/spec.md, "Reducers")
 * with generated sequences of writes run through real graphs; defaults, resets, custom reducers,
 * and what happens to a write that does not fit its channel.
 */
import type { BaseMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { parseSpec } from "../../src/spec/load.js";
import { plain } from "../support/equivalence.js";
import { rejection, specDoc } from "./helpers.js";

/** A chain of `set` nodes, each writing one literal value to channel `c`, as a JSON spec. */
function chainSpec(field: Record<string, unknown>, writes: unknown[]) {
  const nodes: Record<string, unknown> = {};
  const edges: unknown[] = [];
  writes.forEach((value, i) => {
    nodes[`w${i}`] = { kind: "set", values: { c: value } };
    edges.push({ from: i === 0 ? "START" : `w${i - 1}`, to: `w${i}` });
  });
  edges.push({ from: `w${writes.length - 1}`, to: "END" });
  const spec = { version: 1, name: "chain", state: { c: field }, nodes, edges };
  return parseSpec(JSON.stringify(spec), {
    file: "chain.json",
    root: process.cwd(),
    format: "json",
  });
}

async function runChain(field: Record<string, unknown>, writes: unknown[]): Promise<unknown> {
  const g = await compile(chainSpec(field, writes), { validate: false });
  return plain((await g.invoke({})).c);
}

// Strings without template markers; small so the generated specs stay small.
const word = fc.stringMatching(/^[a-z]{0,4}$/);
const item = fc.oneof(word, fc.integer({ min: -5, max: 5 }), fc.record({ k: word }));
const itemOrList = fc.oneof(item, fc.array(item, { maxLength: 3 }));
const props = { numRuns: 40 };
const items = (w: unknown) => (Array.isArray(w) ? w : [w]);
const key = (v: unknown) => JSON.stringify(v);

describe("reducers, against their definitions", () => {
  it("append: the items, in order; a list is spread", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(itemOrList, { minLength: 1, maxLength: 4 }), async (writes) => {
        const got = await runChain({ type: "array", reducer: "append", default: [] }, writes);
        expect(got).toEqual(writes.flatMap(items));
      }),
      props,
    );
  });

  it("append without a default: the first write is a list too", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(itemOrList, { minLength: 1, maxLength: 3 }), async (writes) => {
        expect(await runChain({ type: "array", reducer: "append" }, writes)).toEqual(
          writes.flatMap(items),
        );
      }),
      props,
    );
  });

  it("union: like append, without repeats (compared as JSON values)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(itemOrList, { minLength: 1, maxLength: 4 }), async (writes) => {
        const all = writes.flatMap(items);
        const expected = all.filter((v, i) => all.findIndex((w) => key(w) === key(v)) === i);
        expect(await runChain({ type: "array", reducer: "union" }, writes)).toEqual(expected);
      }),
      props,
    );
  });

  it("union compares objects by value, whatever their key order", async () => {
    const got = await runChain({ type: "array", reducer: "union", default: [] }, [
      { a: 1, b: 2 },
      [{ b: 2, a: 1 }, 3],
    ]);
    expect(got).toEqual([{ a: 1, b: 2 }, 3]);
  });

  it("merge: a shallow merge, later keys win", async () => {
    const record = fc.dictionary(fc.constantFrom("a", "b", "c"), fc.oneof(word, fc.integer()), {
      maxKeys: 3,
    });
    await fc.assert(
      fc.asyncProperty(fc.array(record, { minLength: 1, maxLength: 4 }), async (writes) => {
        const expected = Object.assign({}, ...writes);
        expect(await runChain({ type: "object", reducer: "merge", default: {} }, writes)).toEqual(
          expected,
        );
      }),
      props,
    );
  });

  it("sum, max, min", async () => {
    const ints = fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(ints, async (writes) => {
        expect(await runChain({ type: "integer", reducer: "sum", default: 0 }, writes)).toBe(
          writes.reduce((a, b) => a + b, 0),
        );
        expect(await runChain({ type: "integer", reducer: "sum" }, writes)).toBe(
          writes.reduce((a, b) => a + b, 0),
        );
        expect(await runChain({ type: "integer", reducer: "max" }, writes)).toBe(
          Math.max(...writes),
        );
        expect(await runChain({ type: "integer", reducer: "min" }, writes)).toBe(
          Math.min(...writes),
        );
      }),
      { numRuns: 15 },
    );
  });

  it("messages: appended; a message with the id of an existing one replaces it", async () => {
    const message = fc.record({
      role: fc.constantFrom("user", "assistant"),
      content: word,
      id: fc.constantFrom("m1", "m2", "m3"),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(message, fc.array(message, { maxLength: 2 })), {
          minLength: 1,
          maxLength: 4,
        }),
        async (writes) => {
          const expected: { id: string; content: string }[] = [];
          for (const m of writes.flatMap(items) as { id: string; content: string }[]) {
            const at = expected.findIndex((e) => e.id === m.id);
            if (at >= 0) expected[at] = m;
            else expected.push(m);
          }
          const g = await compile(chainSpec({ type: "messages" }, writes), { validate: false });
          const got = (await g.invoke({})).c as { id: string; content: string }[];
          expect(got.map((m) => [m.id, m.content])).toEqual(expected.map((m) => [m.id, m.content]));
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe("defaults and resets", () => {
  it("a default is copied for each run: no run sees another's writes", async () => {
    const g = await compile(
      chainSpec({ type: "array", reducer: "append", default: ["seed"] }, ["x"]),
    );
    expect((await g.invoke({})).c).toEqual(["seed", "x"]);
    expect((await g.invoke({})).c).toEqual(["seed", "x"]);
  });

  it("writing null resets a channel, whatever its reducer", async () => {
    expect(
      await runChain({ type: "array", reducer: "append", default: [] }, ["a", null, "b"]),
    ).toEqual(["b"]);
    expect(await runChain({ type: "integer", reducer: "sum", default: 5 }, [1, null, 2])).toBe(2);
    expect(await runChain({ type: "string" }, ["a", null])).toBe(null);
  });

  it("a reducer of the user's own combines writes", async () => {
    const g = await compile(
      specDoc(`version: 1
name: t
state:
  best: { type: string, reducer: { module: ./flaky.ts, export: longer }, default: "" }
nodes:
  a: { kind: set, values: { best: abc } }
  b: { kind: set, values: { best: x } }
  c: { kind: set, values: { best: abcdef } }
edges:
  - { from: START, to: a }
  - { from: a, to: b }
  - { from: b, to: c }
  - { from: c, to: END }
`),
    );
    expect(await g.invoke({})).toEqual({ best: "abcdef" });
  });

  it("a message channel with a reducer of the user's own starts as messages too", async () => {
    // Found by the differential test: the default's plain string stayed a string, and the
    // `tools` node reading the channel failed with LangChain's `x._getType is not a function`.
    const g = await compile(
      specDoc(`version: 1
name: t
state:
  messages: { type: messages, reducer: { module: ./flaky.ts, export: longer }, default: [hello] }
  done: { type: boolean }
nodes:
  act: { kind: tools }
  finish: { kind: set, values: { done: true } }
edges:
  - { from: START, to: act }
  - { from: act, to: finish }
  - { from: finish, to: END }
`),
    );
    const out = await g.invoke({});
    expect(out.done).toBe(true);
    const [first, ...rest] = out.messages as BaseMessage[];
    expect([first?.getType(), first?.content, rest]).toEqual(["human", "hello", []]);
  });
});

describe("writes that do not fit", () => {
  const spec = (fn: string) =>
    specDoc(`version: 1
name: t
state:
  log: { type: array, items: { type: string }, reducer: append, default: [] }
  count: { type: integer, minimum: 0 }
nodes:
  a: { kind: function, module: ./flaky.ts, export: ${fn} }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`);

  it("a key that is not a channel fails the node, with a did-you-mean (LangGraph would drop it)", async () => {
    const e = await rejection((await compile(spec("typo"))).invoke({}));
    expect(e).toMatchObject({
      name: "GraphspecRunError",
      code: "invalid-write",
      node: "a",
      field: "lgo",
    });
    expect(e.message).toBe("node `a` wrote `lgo`, which is not a state channel");
    expect(e.hint).toBe("did you mean `log`?");
  });

  it("a value of the wrong type names the node, the channel and the value", async () => {
    const g = await compile(
      specDoc(`version: 1
name: t
state:
  count: { type: integer, minimum: 0 }
  anything: { type: any }
nodes:
  a: { kind: set, values: { count: "\${{ state.anything }}" } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`),
    );
    const e = await rejection(g.invoke({ anything: "three" }));
    expect(e).toMatchObject({ code: "invalid-write", node: "a", field: "count" });
    expect(e.message).toBe(
      'node `a` wrote "three" to `count`: `count` must be an integer, not the string "three"',
    );
    const e2 = await rejection(g.invoke({ anything: -1 }));
    expect(e2.message).toBe("node `a` wrote -1 to `count`: `count` must be >= 0");
    expect(await g.invoke({ anything: 4 })).toEqual({ count: 4, anything: 4 });
  });

  it("two writes to a replace channel in one step fail the run (LangGraph's InvalidUpdateError)", async () => {
    const parallel = parseSpec(
      JSON.stringify({
        version: 1,
        name: "p",
        state: { c: { type: "string" } },
        nodes: { a: { kind: "set", values: { c: "a" } }, b: { kind: "set", values: { c: "b" } } },
        edges: [
          { from: "START", to: ["a", "b"] },
          { from: ["a", "b"], to: "END" },
        ],
      }),
      { file: "p.json", root: process.cwd(), format: "json" },
    );
    // The validator finds this before any run; compiled anyway, LangGraph still refuses at run time.
    const e = await rejection((await compile(parallel, { validate: false })).invoke({}));
    expect(e.name).toBe("InvalidUpdateError");
  });
});
