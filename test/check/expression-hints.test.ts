/**
 * The words of expression errors (src/expr/diagnose.ts), as users read them through `validate`:
 * each message and hint exact. The mutation-tested group `expression-hints` (stryker/groups.mjs)
 * runs this file first; test/check/expression-findings.test.ts holds the rest of its cases.
 */
import { describe, expect, it } from "vitest";
import { parseSpec, validate } from "../../src/index.js";
import { formatExpected } from "../helpers.js";

const found = async (yaml: string) => formatExpected(await validate(parseSpec(yaml)));

/** The first route's line and the column of its expression's first character. */
const FIRST_ROUTE_LINE = 19;
const WHEN_COLUMN = 18;

/**
 * Each bare `when` on a line of its own, in a spec with typed channels (objects, a list of
 * objects, a map of objects): `expression: start-end [rule] message (hint: …)`, columns counted
 * from the expression's start.
 */
async function whenFindings(whens: readonly string[]): Promise<string[]> {
  const routes = whens.map((w) => `      - { when: "${w}", to: END }`).join("\n");
  const ds = await validate(
    parseSpec(`version: 1
name: t
state:
  n: { type: integer }
  s: { type: string }
  m: { type: object, properties: { a: { type: string } } }
  mm: { type: object, properties: { size: { type: object, properties: { z: { type: integer } } } } }
  msgs: { type: messages }
  lm: { type: array, items: { type: object, properties: { x: { type: integer } } } }
  xm: { type: object, additionalProperties: { type: object, properties: { y: { type: string } } } }
context:
  c: { type: object, properties: { k: { type: boolean } } }
nodes:
  a: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: a }
  - from: a
    route:
${routes}
      - { default: END }
`),
  );
  return ds.map((d) => {
    const w = whens[d.line - FIRST_ROUTE_LINE];
    const span = `${d.column - WHEN_COLUMN}-${d.endColumn - WHEN_COLUMN}`;
    return `${w}: ${span} [${d.rule}] ${d.message}${d.hint ? ` (hint: ${d.hint})` : ""}`;
  });
}

describe("types in messages, as users write them", () => {
  it("shows an object by its fields, not by the name graphspec registers it under", async () => {
    expect(
      await whenFindings([
        "size(state.m) == 1",
        "state.m.startsWith('a')",
        "size(state.lm[0]) == 1",
        "state.lm + 1 == []",
        "state.xm['k'] + 1 == 1",
        "-state.m == 1",
        "!state.m",
        "state.m ? true : false",
        "[1][state.m] == 1",
        "size(context.c) == 1",
        "state.m + state.lm[0] == 1",
      ]),
    ).toEqual([
      "size(state.m) == 1: 0-13 [expression-type] no overload of `size` accepts `size({a: string})`",
      "state.m.startsWith('a'): 0-23 [expression-type] no overload of `startsWith` accepts `{a: string}.startsWith(string)`",
      "size(state.lm[0]) == 1: 0-17 [expression-type] no overload of `size` accepts `size({x: int})`",
      "state.lm + 1 == []: 0-12 [expression-type] `+` cannot combine `list<{x: int}>` and `int`",
      "state.xm['k'] + 1 == 1: 0-17 [expression-type] `+` cannot combine `{y: string}` and `int`",
      "-state.m == 1: 0-8 [expression-type] `-` cannot be applied to `{a: string}`",
      "!state.m: 0-8 [expression-type] `!` cannot be applied to `{a: string}`",
      "state.m ? true : false: 6-7 [expression-type] ternary condition must be bool, got `{a: string}`",
      "[1][state.m] == 1: 0-12 [expression-type] list index must be int, got `{a: string}`",
      "size(context.c) == 1: 0-15 [expression-type] no overload of `size` accepts `size({k: bool})`",
      "state.m + state.lm[0] == 1: 0-21 [expression-type] `+` cannot combine `{a: string}` and `{x: int}`",
    ]);
  });

  it("shows the whole state by its channels, and timestamps and durations by CEL's names", async () => {
    expect(
      await whenFindings([
        "state + 1 == 1",
        "timestamp('2020-01-01T00:00:00Z') + 1 == 1",
        "duration('1s') * 2 == 1",
      ]),
    ).toEqual([
      "state + 1 == 1: 0-9 [expression-type] `+` cannot combine `{n: int, s: string, m: {a: string}, mm: {size: {…}}, …}` and `int`",
      "timestamp('2020-01-01T00:00:00Z') + 1 == 1: 0-37 [expression-type] `+` cannot combine `timestamp` and `int`",
      "duration('1s') * 2 == 1: 0-18 [expression-type] `*` cannot combine `duration` and `int`",
    ]);
  });

  it("shows a record called like a method as the receiver it is, and a second node's output apart from the first's", async () => {
    expect(await whenFindings(["state.mm.size() == 1", "state.lm.all(x, state.msgs[0])"])).toEqual([
      "state.mm.size() == 1: 0-15 [expression-type] no overload of `size` accepts `{size: {z: int}}.size()`",
      "state.lm.all(x, state.msgs[0]): 16-29 [expression-type] all(var, predicate) predicate must return bool, got `Message`",
    ]);
    const twoOutputs = (node: string) => `  ${node}:
    kind: llm
    prompt: hi
    output: { schema: { type: object, properties: { ${node}: { type: string } } } }
    write: { n: "\${{ size(output) }}" }
`;
    expect(
      await found(`version: 1
name: t
state:
  n: { type: integer }
models:
  default: { model: "openai:gpt-4o-mini" }
nodes:
${twoOutputs("first")}${twoOutputs("second")}edges:
  - { from: START, to: first }
  - { from: first, to: second }
  - { from: second, to: END }
`),
    ).toEqual([
      "12:22-12:34 error [expression-type] no overload of `size` accepts `size({first: string})`",
      "17:22-17:34 error [expression-type] no overload of `size` accepts `size({second: string})`",
    ]);
  });
});

describe("characters and keys, as users typed them", () => {
  it("names an invisible character by its code point, and an emoji whole", async () => {
    expect(
      await whenFindings(["state.n ==\u00a01", "state.n ==\u200b1", "state.n == \u{1F600}"]),
    ).toEqual([
      "state.n ==\u00a01: 10-11 [expression-syntax] unexpected invisible character U+00A0 (hint: delete it, or type a plain space: it often comes with copied text)",
      "state.n ==\u200b1: 10-11 [expression-syntax] unexpected invisible character U+200B (hint: delete it, or type a plain space: it often comes with copied text)",
      "state.n == \u{1F600}: 11-12 [expression-syntax] unexpected `\u{1F600}`",
    ]);
  });

  it("hints `!=` only for a stray `=` after `!=`, and keeps a key named like a type", async () => {
    expect(
      await whenFindings(["state.n !=@ 1", "state.m.State == 1", "(state.m ).b == 1"]),
    ).toEqual([
      "state.n !=@ 1: 10-11 [expression-syntax] unexpected `@`",
      "state.m.State == 1: 8-13 [expression-type] `state.m` has no field `State` (hint: its fields: `a`)",
      "(state.m ).b == 1: 11-12 [expression-type] `state.m` has no field `b` (hint: did you mean `a`?)",
    ]);
  });
});
