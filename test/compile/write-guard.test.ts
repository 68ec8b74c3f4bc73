/**
 * Every value entering the state is checked against its channel and put in the form the
 * channel's reducer combines (src/compile/write-guard.ts), for a node's update and for the run's
 * input alike: one reducer at a time, with values only the run knows (read from an `any` channel,
 * so validate cannot see them), through the package's `compile`.
 */
import { join } from "node:path";
import { compile, parseSpec } from "graphspec";
import { describe, expect, it } from "vitest";

const STATE = `
  anything: { type: any }
  r: { type: integer, minimum: 0 }
  app: { type: array, items: { type: string }, reducer: append, default: [] }
  uni: { type: array, items: { type: integer }, reducer: union, default: [] }
  loose: { type: array, reducer: append, default: [] }
  none: { type: array, items: false, reducer: append, default: [] }
  bare: { type: array, items: { type: integer }, reducer: union }
  raw: { type: array, items: { type: string }, reducer: append }
  own: { type: string, reducer: { module: ./flaky.ts, export: longer }, default: "" }
  m: { type: object, properties: { a: { type: integer }, b: { type: string } }, required: [a, b], reducer: merge, default: { a: 1, b: x } }
  s: { type: integer, reducer: sum, default: 0 }
  mx: { type: number, reducer: max, default: 0 }
  mn: { type: integer, reducer: min, default: 100 }
  msgs: { type: messages }`;

/** A graph whose node `a` writes `state.anything` to `channel`. */
async function writer(channel: string) {
  const text = `version: 1
name: t
state:${STATE}
nodes:
  a: { kind: set, values: { ${channel}: "\${{ state.anything }}" } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`;
  const file = "test/fixtures/compile/core/t.yaml";
  return compile(parseSpec(text, { file, root: process.cwd() }, join(process.cwd(), file)));
}
/** What the channel holds after node `a` wrote `value` to it. */
async function holdsAfter(channel: string, value: unknown) {
  const g = await writer(channel);
  return ((await g.invoke({ anything: value })) as Record<string, unknown>)[channel];
}
/** The error node `a` fails with when it writes `value` to `channel`. */
async function refused(channel: string, value: unknown) {
  const g = await writer(channel);
  try {
    await g.invoke({ anything: value });
  } catch (e) {
    return e as Error & { code: string; node?: string; field: string; hint: string };
  }
  throw new Error(`${channel} took ${JSON.stringify(value)}`);
}

describe("a replacing channel", () => {
  it("takes a value of its type and refuses another, naming node, channel, value and fix", async () => {
    expect(await holdsAfter("r", 3)).toBe(3);
    const e = await refused("r", -1);
    expect(e).toMatchObject({ code: "invalid-write", node: "a", field: "r" });
    expect(e.message).toBe("node `a` wrote -1 to `r`: `r` must be >= 0");
    expect(e.hint).toBe("write a value that matches the declaration of `r` in `state`");
  });

  it("is reset by null", async () => {
    expect(await holdsAfter("r", null)).toBeNull();
  });
});

describe("append and union", () => {
  it("append: a bare item becomes a list, each item checked as `channel[]`", async () => {
    expect(await holdsAfter("app", "one")).toEqual(["one"]);
    expect(await holdsAfter("app", ["one", "two"])).toEqual(["one", "two"]);
    const e = await refused("app", ["one", 2]);
    expect(e).toMatchObject({ code: "invalid-write", node: "a", field: "app" });
    expect(e.message).toBe("node `a` wrote 2 to `app`: `app[]` must be a string, not 2");
  });

  it("union: items kept once", async () => {
    expect(await holdsAfter("uni", [1, 1, 2, 1])).toEqual([1, 2]);
    expect(await holdsAfter("uni", 3)).toEqual([3]);
    expect((await refused("uni", ["x"])).message).toMatch(
      /^node `a` wrote "x" to `uni`: `uni\[\]`/,
    );
  });

  it("the first write of a channel without a default is in the reducer's form too", async () => {
    // LangGraph stores a channel's first write without calling its reducer.
    expect(await holdsAfter("bare", [1, 1, 2, 1])).toEqual([1, 2]);
    expect(await holdsAfter("raw", ["a", "a"])).toEqual(["a", "a"]);
  });

  it("`items: false` takes no item", async () => {
    expect((await refused("none", ["x"])).message).toMatch(
      /^node `a` wrote "x" to `none`: `none\[\]`/,
    );
    expect(await holdsAfter("none", [])).toEqual([]);
  });

  it("a list without `items` takes items of any kind", async () => {
    expect(await holdsAfter("loose", [1, "x", { k: null }])).toEqual([1, "x", { k: null }]);
  });

  it("null resets a reducer channel, past its reducer", async () => {
    expect(await holdsAfter("app", null)).toBeNull();
  });
});

describe("merge", () => {
  it("takes part of the object, each key checked, and refuses what is not an object", async () => {
    expect(await holdsAfter("m", { a: 2 })).toEqual({ a: 2, b: "x" });
    expect((await refused("m", { a: "two" })).message).toMatch(
      /^node `a` wrote \{"a":"two"\} to `m`:/,
    );
    expect((await refused("m", 5)).message).toMatch(
      /^node `a` wrote 5 to `m`: `m` must be a mapping, not 5$/,
    );
  });
});

describe("a reducer of the user's own", () => {
  it("decides what it takes: the write is passed to it as it is", async () => {
    expect(await holdsAfter("own", "longest")).toBe("longest");
    expect(await holdsAfter("own", 5)).toBe(5);
  });
});

describe("sum, max, min", () => {
  it("an integer channel takes integers only; a number channel any number", async () => {
    expect(await holdsAfter("s", 2)).toBe(2);
    expect((await refused("s", 1.5)).message).toMatch(/`s` must be an integer/);
    expect((await refused("mn", 1.5)).message).toMatch(/`mn` must be an integer/);
    expect(await holdsAfter("mx", 1.5)).toBe(1.5);
    expect((await refused("mx", "x")).message).toMatch(/`mx` must be a number/);
  });
});

describe("a messages channel", () => {
  it("takes messages, strings and role or type maps with content", async () => {
    const msgs = (await holdsAfter("msgs", [
      "hi",
      { role: "user", content: "a" },
      { type: "ai", content: "b" },
    ])) as { content: string }[];
    expect(msgs.map((m) => m.content)).toEqual(["hi", "a", "b"]);
  });

  for (const bad of [
    5,
    { role: "user" },
    { role: 5, content: "a" },
    { type: 5, content: "a" },
    { content: "a" },
  ]) {
    it(`refuses ${JSON.stringify(bad)}, naming the item`, async () => {
      const e = await refused("msgs", ["fine", bad]);
      expect(e).toMatchObject({ code: "invalid-write", node: "a", field: "msgs" });
      expect(e.message).toBe(
        `node \`a\` wrote ${JSON.stringify(bad)} to \`msgs\`: a message channel takes messages, strings or \`{ role, content }\` maps`,
      );
    });
  }
});

describe("the run's input", () => {
  it("is checked as a node's update is, refused as invalid input with no node", async () => {
    const g = await writer("r");
    let e: (Error & Record<string, unknown>) | undefined;
    try {
      await g.invoke({ r: "three" });
    } catch (err) {
      e = err as Error & Record<string, unknown>;
    }
    expect(e).toMatchObject({ code: "invalid-input", field: "r" });
    expect(e?.node).toBeUndefined();
    expect(e?.message).toBe(
      'the run\'s input wrote "three" to `r`: `r` must be an integer, not the string "three"',
    );
  });
});

describe("a node's update as a whole", () => {
  /** A graph whose function node `f` returns the run's `update` as its update. */
  const echo = () =>
    compile(
      parseSpec(
        `version: 1
name: t
state:
  update: { type: any }
  log: { type: array, items: { type: string }, reducer: append, default: [] }
  r: { type: integer }
nodes:
  f: { kind: function, module: ./updates.ts, export: echo }
edges:
  - { from: START, to: f }
  - { from: f, to: END }
`,
        { file: "test/fixtures/compile/core/echo.yaml", root: process.cwd() },
        join(process.cwd(), "test/fixtures/compile/core/echo.yaml"),
      ),
    );

  it("leaves out keys whose value is undefined", async () => {
    const out = await (await echo()).invoke({ update: { r: undefined, log: "x" } });
    expect(out).toMatchObject({ log: ["x"] });
    expect("r" in (out as object)).toBe(false);
  });

  it("refuses a channel its `writes` list does not name, saying how to fix it", async () => {
    const g = await compile(
      parseSpec(
        `version: 1
name: t
state:
  update: { type: any }
  log: { type: array, items: { type: string }, reducer: append, default: [] }
  r: { type: integer }
nodes:
  f: { kind: function, module: ./updates.ts, export: echo, writes: [log] }
edges:
  - { from: START, to: f }
  - { from: f, to: END }
`,
        { file: "test/fixtures/compile/core/echo.yaml", root: process.cwd() },
        join(process.cwd(), "test/fixtures/compile/core/echo.yaml"),
      ),
    );
    await expect(g.invoke({ update: { log: "x" } })).resolves.toMatchObject({ log: ["x"] });
    await expect(g.invoke({ update: { r: 1 } })).rejects.toMatchObject({
      code: "invalid-write",
      node: "f",
      field: "r",
      message: "node `f` wrote `r`, which its `writes` list does not name",
      hint: "add `r` to the node's `writes`, or stop writing it",
    });
  });

  it("refuses a key that is not a channel, with a did-you-mean or the fix", async () => {
    const g = await echo();
    await expect(g.invoke({ update: { lgo: "x" } })).rejects.toMatchObject({
      code: "invalid-write",
      node: "f",
      field: "lgo",
      message: "node `f` wrote `lgo`, which is not a state channel",
      hint: "did you mean `log`?",
    });
    await expect(g.invoke({ update: { zzzzzzzz: 1 } })).rejects.toMatchObject({
      hint: "declare `zzzzzzzz` in `state`, or stop writing it",
    });
  });
});
