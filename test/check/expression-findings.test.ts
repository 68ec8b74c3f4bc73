/**
 * What the expression rules (`expression-type`, with `expression-syntax`, `unknown-state-key` and
 * `reducer-write`, which share their findings) report through `validate`, message, hint and span
 * exact: the mutation-tested group `expression-type` (stryker/groups.mjs) runs this file first.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseSpec, readSpec, validate } from "../../src/index.js";
import { formatExpected } from "../helpers.js";

const found = async (yaml: string) => formatExpected(await validate(parseSpec(yaml)));

/** The first route's line and the column of its expression's first character. */
const FIRST_ROUTE_LINE = 13;
const WHEN_COLUMN = 18;

/**
 * Each bare `when` on a line of its own, in a spec with a few typed channels: the findings as
 * `expression: start-end [rule] message (hint)`, with columns counted from the expression's start.
 */
async function whenFindings(whens: readonly string[]): Promise<string[]> {
  const routes = whens.map((w) => `      - { when: "${w}", to: END }`).join("\n");
  const ds = await validate(
    parseSpec(`version: 1
name: t
state:
  n: { type: integer }
  s: { type: string }
  l: { type: array, items: { type: string } }
  m: { type: object, properties: { a: { type: string } } }
nodes:
  a: { kind: set, values: { n: 1 } }
edges:
  - from: a
    route:
${routes}
      - { default: END }
  - { from: START, to: a }
`),
  );
  return ds.map((d) => {
    const w = whens[d.line - FIRST_ROUTE_LINE];
    const span = `${d.column - WHEN_COLUMN}-${d.endColumn - WHEN_COLUMN}`;
    return `${w}: ${span} [${d.rule}] ${d.message}${d.hint ? ` (hint: ${d.hint})` : ""}`;
  });
}

const HINT_SPLIT = "(hint: split it, or move the logic into a function node)";
const IN_SCOPE = "(hint: in scope here: `state` and `context`)";
const NUMBERS_HINT =
  "(hint: CEL does not mix number types: write `1.0` for a double, or convert with `double(…)` or `int(…)`)";
const HAS_HINT = "(hint: to test whether a field is set, use `has(x.field)`)";
const UNCLOSED =
  "[expression-syntax] the string is not closed (hint: close the quote; in YAML, quote the whole value with the other kind of quote)";

describe("syntax errors, in words", () => {
  it("names the token found where a value belongs", async () => {
    const ops = ["+", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "in"];
    const marks = ["]", "}", ".", ",", ":", "?"];
    const whens = [...ops, ...marks].map((t) => `1 == ${t}`);
    expect(await whenFindings(whens)).toEqual(
      [...ops, ...marks].map(
        (t) => `1 == ${t}: 5-${5 + t.length} [expression-syntax] unexpected \`${t}\``,
      ),
    );
  });

  it("names the token found where another was expected", async () => {
    expect(
      await whenFindings([
        "state.1",
        "state.'a'",
        "state.b'x'",
        "state.true",
        "state.null",
        "state.(",
        "state.[",
        "state.{",
        "state.!",
        "state.-",
        "state.+",
        "(1 2",
        "[1 2",
        "{1 2",
        "{1: 2 3",
        "state.n ==",
        "1 == ",
        "size(1",
      ]),
    ).toEqual([
      "state.1: 6-7 [expression-syntax] expected a name, found a number",
      "state.'a': 6-9 [expression-syntax] expected a name, found a string",
      "state.b'x': 6-10 [expression-syntax] expected a name, found a bytes literal",
      "state.true: 6-10 [expression-syntax] expected a name, found a boolean",
      "state.null: 6-10 [expression-syntax] expected a name, found `null`",
      "state.(: 6-7 [expression-syntax] expected a name, found `(`",
      "state.[: 6-7 [expression-syntax] expected a name, found `[`",
      "state.{: 6-7 [expression-syntax] expected a name, found `{`",
      "state.!: 6-7 [expression-syntax] expected a name, found `!`",
      "state.-: 6-7 [expression-syntax] expected a name, found `-`",
      "state.+: 6-7 [expression-syntax] expected a name, found `+`",
      "(1 2: 3-4 [expression-syntax] expected `)`, found a number",
      "[1 2: 3-4 [expression-syntax] expected `]`, found a number",
      "{1 2: 3-4 [expression-syntax] expected `:`, found a number",
      "{1: 2 3: 6-7 [expression-syntax] expected `}`, found a number",
      "state.n ==: 10-10 [expression-syntax] the expression ends too early",
      "1 == : 5-5 [expression-syntax] the expression ends too early",
      "size(1: 6-6 [expression-syntax] expected `)`, but the expression ends",
    ]);
  });

  it("explains characters CEL has no use for, and strings left open", async () => {
    expect(
      await whenFindings([
        "1 @ 2",
        "a = 1",
        "state.n === 1",
        "state.n !== 1",
        "state.s == $x",
        "state.n == ''''",
        "state.n == '''a",
      ]),
    ).toEqual([
      "1 @ 2: 2-3 [expression-syntax] unexpected `@`",
      "a = 1: 2-3 [expression-syntax] unexpected `=` (hint: compare with `==`)",
      "state.n === 1: 10-11 [expression-syntax] unexpected `=` (hint: compare with `==`)",
      "state.n !== 1: 10-11 [expression-syntax] unexpected `=` (hint: compare with `!=`)",
      "state.s == $x: 11-12 [expression-syntax] unexpected `$` (hint: `${{ }}` belongs in templates, not in bare CEL)",
      `state.n == '''': 11-15 ${UNCLOSED}`,
      `state.n == '''a: 11-15 ${UNCLOSED}`,
    ]);
  });

  it("names the bound an expression passes", async () => {
    const deep = `${"(".repeat(65)}1${")".repeat(65)}`;
    const list = `[${Array(1001).fill("1").join(",")}] == []`;
    const args = `size(${Array(33).fill("1").join(",")}) == 1`;
    const parts = `${Array(1100).fill("1").join("+")} == 1`;
    const long = "x".repeat(4097);
    expect(await whenFindings([deep, list, args, parts, long])).toEqual([
      `${deep}: 64-64 [expression-syntax] the expression is nested more than 64 deep ${HINT_SPLIT}`,
      `${list}: 2001-2001 [expression-syntax] the expression has a list of more than 1000 items ${HINT_SPLIT}`,
      `${args}: 69-69 [expression-syntax] the expression calls a function with more than 32 arguments ${HINT_SPLIT}`,
      `${parts}: 0-0 [expression-syntax] the expression has more than 2000 parts ${HINT_SPLIT}`,
      `${long}: 0-4097 [expression-syntax] the expression is 4097 characters long; the limit is 4096 ${HINT_SPLIT}`,
    ]);
  });
});

describe("type errors, in words", () => {
  it("reads a key in brackets as a field, and an expression of spaces as empty", async () => {
    expect(
      await whenFindings([
        " ",
        "state['nope'] == 1",
        "state.m['b'] == 'x'",
        "context['x'] == 1",
        "state.l[0]['x']",
        "state.m.a.matches(1)",
      ]),
    ).toEqual([
      " : 1-1 [expression-syntax] the expression is empty",
      "state['nope'] == 1: 6-12 [unknown-state-key] `nope` is not a state channel (hint: declare it under `state`)",
      "state.m['b'] == 'x': 8-11 [expression-type] `state.m` has no field `b` (hint: did you mean `a`?)",
      "context['x'] == 1: 8-11 [unknown-state-key] `x` is not declared in `context` (hint: declare it under `context`)",
      "state.l[0]['x']: 0-15 [expression-type] `state.l[0]` is a `string`, which has no fields or items",
      "state.m.a.matches(1): 0-20 [expression-type] no overload of `matches` accepts `string.matches(int)`",
    ]);
  });

  it("passes on cel-js's other messages, its quotes as backticks and its capital dropped", async () => {
    expect(
      await whenFindings([
        "state.n ? 1 : 2",
        "state.l.all(x, 1)",
        "1 && true",
        "state.l[true]",
        "while",
        "0x",
        "[1][0].x",
      ]),
    ).toEqual([
      "state.n ? 1 : 2: 6-7 [expression-type] ternary condition must be bool, got `int`",
      "state.l.all(x, 1): 15-16 [expression-type] all(var, predicate) predicate must return bool, got `int`",
      "1 && true: 0-9 [expression-type] logical operator requires bool operands, got `int`",
      "state.l[true]: 0-13 [expression-type] list index must be int, got `bool`",
      "while: 0-5 [expression-syntax] reserved identifier: while",
      "0x: 0-2 [expression-syntax] invalid hex integer: 0x",
      "[1][0].x: 7-8 [expression-type] `[1][0]` is an `int`, which has no fields or items",
    ]);
  });

  it("names a word from another language, or what is in scope", async () => {
    expect(
      await whenFindings([
        "nil",
        "undefined",
        "False",
        "True",
        "None",
        "not",
        "and",
        "or",
        "a",
        "stat.n",
        "item == 1",
        "output",
        "result",
        "resume",
        "error",
        "env.X",
        "context.x",
      ]),
    ).toEqual([
      "nil: 0-3 [expression-type] unknown name `nil` (hint: CEL writes `null`)",
      "undefined: 0-9 [expression-type] unknown name `undefined` (hint: CEL writes `null`)",
      "False: 0-5 [expression-type] unknown name `False` (hint: CEL writes `false`)",
      "True: 0-4 [expression-type] unknown name `True` (hint: CEL writes `true`)",
      "None: 0-4 [expression-type] unknown name `None` (hint: CEL writes `null`)",
      "not: 0-3 [expression-type] unknown name `not` (hint: CEL writes `!` for not)",
      "and: 0-3 [expression-type] unknown name `and` (hint: CEL writes `&&` for and)",
      "or: 0-2 [expression-type] unknown name `or` (hint: CEL writes `||` for or)",
      'a: 0-1 [expression-type] unknown name `a` (hint: in scope here: `state` and `context`; to compare with the text a, quote it: `"a"`)',
      "stat.n: 0-4 [expression-type] unknown name `stat` (hint: did you mean `state`?)",
      `item == 1: 0-4 [expression-type] \`item\` is not available in a route's \`when\`: it exists in \`map.with\` ${IN_SCOPE}`,
      `output: 0-6 [expression-type] \`output\` is not available in a route's \`when\`: it exists in the \`write\` of \`llm\` and \`agent\` nodes and in the \`output\` of \`subgraph\` nodes ${IN_SCOPE}`,
      `result: 0-6 [expression-type] \`result\` is not available in a route's \`when\`: it exists in the \`write\` of \`tool\` nodes ${IN_SCOPE}`,
      `resume: 0-6 [expression-type] \`resume\` is not available in a route's \`when\`: it exists in the \`write\` of \`interrupt\` nodes ${IN_SCOPE}`,
      `error: 0-5 [expression-type] \`error\` is not available in a route's \`when\`: it exists in \`on_error.write\` ${IN_SCOPE}`,
      `env.X: 0-3 [expression-type] \`env\` is only available in \`models\` ${IN_SCOPE}`,
      "context.x: 8-9 [unknown-state-key] `x` is not declared in `context` (hint: declare it under `context`)",
    ]);
  });

  it("says which operator cannot take which types, with a way out where CEL has one", async () => {
    expect(
      await whenFindings([
        "-state.s",
        "!state.n",
        "state.s == null",
        "null != state.n",
        "state.n + 'a'",
        "'a' + state.n",
        "state.n + 1.5",
        "state.n - 1u",
        "state.n in state.s",
        "[1] + 2",
        "'(' * 70",
        "state.n == 1.5",
        "1.5 != state.n",
      ]),
    ).toEqual([
      "-state.s: 0-8 [expression-type] `-` cannot be applied to `string`",
      "!state.n: 0-8 [expression-type] `!` cannot be applied to `int`",
      `state.s == null: 0-15 [expression-type] \`==\` cannot combine \`string\` and \`null\` ${HAS_HINT}`,
      `null != state.n: 0-15 [expression-type] \`!=\` cannot combine \`null\` and \`int\` ${HAS_HINT}`,
      "state.n + 'a': 0-13 [expression-type] `+` cannot combine `int` and `string` (hint: convert the other side with `string(…)`)",
      "'a' + state.n: 0-13 [expression-type] `+` cannot combine `string` and `int` (hint: convert the other side with `string(…)`)",
      `state.n + 1.5: 0-13 [expression-type] \`+\` cannot combine \`int\` and \`double\` ${NUMBERS_HINT}`,
      `state.n - 1u: 0-12 [expression-type] \`-\` cannot combine \`int\` and \`uint\` ${NUMBERS_HINT}`,
      "state.n in state.s: 0-18 [expression-type] `in` cannot combine `int` and `string`",
      "[1] + 2: 0-7 [expression-type] `+` cannot combine `list<int>` and `int`",
      "'(' * 70: 0-8 [expression-type] `*` cannot combine `string` and `int`",
    ]);
  });

  it("says what a value without fields is, and which fields a record has", async () => {
    expect(
      await whenFindings([
        "state.n.x",
        "state.l[0].x",
        "1.x",
        "(1).x",
        "state.m.b == 'x'",
        "state.m.a.b",
        "state.l[0] == 1",
        "state.s.startsWith(1)",
        "len(state.l)",
        "size()",
        "max(1)",
        "state.s.foo()",
      ]),
    ).toEqual([
      "state.n.x: 8-9 [expression-type] `state.n` is an `int`, which has no fields or items",
      "state.l[0].x: 11-12 [expression-type] `state.l[0]` is a `string`, which has no fields or items",
      "1.x: 2-3 [expression-type] `1` is an `int`, which has no fields or items",
      "(1).x: 4-5 [expression-type] `1` is an `int`, which has no fields or items",
      "state.m.b == 'x': 8-9 [expression-type] `state.m` has no field `b` (hint: did you mean `a`?)",
      "state.m.a.b: 10-11 [expression-type] `state.m.a` is a `string`, which has no fields or items",
      "state.l[0] == 1: 0-15 [expression-type] `==` cannot combine `string` and `int`",
      "state.s.startsWith(1): 0-21 [expression-type] no overload of `startsWith` accepts `string.startsWith(int)`",
      "len(state.l): 0-12 [expression-type] unknown function `len`",
      "size(): 0-6 [expression-type] no overload of `size` accepts `size()`",
      "max(1): 0-6 [expression-type] unknown function `max` (hint: did you mean `map`?)",
      "state.s.foo(): 0-13 [expression-type] unknown function `foo`",
    ]);
  });
});

const WRITES_STATE = `version: 1
name: t
state:
  messages: { type: messages }
  s: { type: string }
  n: { type: integer }
  d: { type: number }
  b: { type: boolean }
  l: { type: array, items: { type: string } }
  ln: { type: array, items: { type: integer }, reducer: append, default: [] }
  m: { type: object, properties: { a: { type: string }, k: { type: string, enum: [x, y] } } }
  free: { type: object }
  mixed: { type: any, reducer: merge }
  total: { type: any, reducer: sum }
  e: { type: string, enum: [low, high] }
`;
const ONE_NODE = `edges:
  - { from: START, to: a }
  - { from: a, to: END }
`;
const MESSAGE_HINT =
  '(hint: e.g. `{ role: assistant, content: "${{ state.answer }}" }`, or a plain string)';
const MESSAGE_EXPR_HINT =
  "(hint: e.g. `${{ {'role': 'user', 'content': state.question} }}`, or a plain string)";

describe("values written to channels", () => {
  it("checks each literal against the channel's type, its enum and its fields", async () => {
    expect(
      await found(`${WRITES_STATE}nodes:
  a:
    kind: set
    values:
      s: true
      n: 1.5
      b: "yes"
      d: x
      l: { a: 1 }
      m: [1]
      free: 3
      e: hgh
      mixed: 3
      total: abc
${ONE_NODE}`),
    ).toEqual([
      "20:10-20:14 error [expression-type] cannot write `bool` to `s`, which takes `string`",
      "21:10-21:13 error [expression-type] cannot write `double` to `n`, which takes `int`",
      "22:10-22:15 error [expression-type] cannot write `string` to `b`, which takes `bool`",
      "23:10-23:11 error [expression-type] cannot write `string` to `d`, which takes `double`",
      "24:10-24:18 error [expression-type] cannot write a map to `l`, which takes `list<string>`",
      "25:10-25:13 error [expression-type] cannot write a list to `m`, which takes `{a: string, k: string}`",
      "26:13-26:14 error [expression-type] cannot write `int` to `free`, which takes `map<string, dyn>`",
      "27:10-27:13 error [expression-type] `hgh` is not one of `low` or `high` (hint: did you mean `high`?)",
      "28:14-28:15 error [reducer-write] cannot write `int` to `mixed`: its reducer `merge` merges mappings, so it takes a map (hint: write a map (`{ key: value }`), or declare `mixed` with `reducer: replace` to store any value)",
      "29:14-29:17 error [reducer-write] cannot write `string` to `total`: its reducer `sum` adds numbers, so it takes a number (hint: write a number, or declare `total` with `reducer: replace` to store any value)",
    ]);
  });

  it("takes what fits: null clears, an int is a double, a list item, a known field, an enum's value", async () => {
    expect(
      await found(`${WRITES_STATE}nodes:
  a:
    kind: set
    values:
      s: null
      d: 2
      n: "\${{ null }}"
      l: [x, "\${{ state.s }}"]
      ln: 3
      m: { a: "\${{ state.s }}", k: y }
      e: low
      free: { any: [1, { deep: true }] }
      mixed: { k: 1 }
      total: 2.5
      messages: [hi, { role: user, content: hello }, { type: ai, content: ok }]
${ONE_NODE}`),
    ).toEqual([]);
  });

  it("names the item or field a nested literal does not fit", async () => {
    expect(
      await found(`${WRITES_STATE}nodes:
  a:
    kind: set
    values:
      l: [ok, 2, [x]]
      m: { k: z, a: 1, zzz: 2 }
${ONE_NODE}`),
    ).toEqual([
      "20:15-20:16 error [expression-type] cannot write `int` to an item of `l`, which takes `string`",
      "20:18-20:21 error [expression-type] cannot write a list to an item of `l`, which takes `string`",
      "21:15-21:16 error [expression-type] `z` is not one of `x` or `y` (hint: did you mean `x`?)",
      "21:21-21:22 error [expression-type] cannot write `int` to `m.a`, which takes `string`",
      "21:24-21:27 error [expression-type] `m` has no field `zzz` (hint: its fields: `a` or `k`)",
    ]);
  });

  it("finds literal maps that are no messages", async () => {
    expect(
      await found(`${WRITES_STATE}nodes:
  a:
    kind: set
    values:
      messages: [{ content: hi }, { role: user }, { type: ai }, [x], { role: user, content: ok }]
${ONE_NODE}`),
    ).toEqual([
      `20:18-20:33 error [expression-type] a message written to \`messages\` needs \`role\`: a map without it is no message ${MESSAGE_HINT}`,
      `20:35-20:49 error [expression-type] a message written to \`messages\` needs \`content\`: a map without it is no message ${MESSAGE_HINT}`,
      `20:51-20:63 error [expression-type] a message written to \`messages\` needs \`content\`: a map without it is no message ${MESSAGE_HINT}`,
      "20:65-20:68 error [expression-type] cannot write a list to an item of `messages`, which takes `string` or `{role, content}` or `{type, content}`",
    ]);
  });
});

describe("expressions written to channels", () => {
  it("checks a whole template's type, with the conversion CEL has for it", async () => {
    expect(
      await found(`${WRITES_STATE}nodes:
  a:
    kind: set
    values:
      s: "\${{ 1u }}"
      n: "\${{ state.b }}"
      d: "\${{ state.s }}"
      b: "\${{ 1u }}"
      l: "\${{ state.s }}"
      ln: "\${{ state.s }}"
      free: "\${{ true }}"
      m: "\${{ 3 }}"
  c:
    kind: set
    values:
      s: "\${{ true }}"
      n: "\${{ 2.5 }}"
edges:
  - { from: START, to: a }
  - { from: a, to: c }
  - { from: c, to: END }
`),
    ).toEqual([
      "20:15-20:17 error [expression-type] cannot write `uint` to `s`, which takes `string` (hint: convert it with `string(…)`)",
      "21:15-21:22 error [expression-type] cannot write `bool` to `n`, which takes `int`",
      "22:15-22:22 error [expression-type] cannot write `string` to `d`, which takes `double` (hint: convert it with `double(…)`)",
      "23:15-23:17 error [expression-type] cannot write `uint` to `b`, which takes `bool`",
      "24:15-24:22 error [expression-type] cannot write `string` to `l`, which takes `list<string>` (hint: wrap it in a list: `[…]`)",
      "25:16-25:23 error [expression-type] cannot write `string` to `ln`, which takes `list<int>` or `int` (hint: convert it with `int(…)`)",
      "26:18-26:22 error [expression-type] cannot write `bool` to `free`, which takes `map<string, dyn>`",
      "27:15-27:16 error [expression-type] cannot write `int` to `m`, which takes `{a: string, k: string}`",
      "31:15-31:19 error [expression-type] cannot write `bool` to `s`, which takes `string` (hint: convert it with `string(…)`)",
      "32:15-32:18 error [expression-type] cannot write `double` to `n`, which takes `int` (hint: convert it with `int(…)`)",
    ]);
  });

  it("takes what fits: null clears, text around an expression is a string, a message's keys", async () => {
    expect(
      await found(`${WRITES_STATE}nodes:
  a:
    kind: set
    values:
      s: "\${{ null }}"
      n: "\${{ 1 }}"
      d: "\${{ 1 }}"
      l: "\${{ [state.s] }}"
      ln: "\${{ 1 }}"
      e: "\${{ state.s }}"
      messages: "\${{ state.s }}"
  two:
    kind: set
    values:
      messages: "hi \${{ state.n }}"
  three:
    kind: set
    values:
      messages: "\${{ [{'role': 'user', 'content': 'x'}, {'type': 'ai', 'content': 'y'}, {state.s: 1}] }}"
edges:
  - { from: START, to: a }
  - { from: a, to: two }
  - { from: two, to: three }
  - { from: three, to: END }
`),
    ).toEqual([]);
  });

  it("finds map expressions that are no messages, by their keys or their declaration", async () => {
    expect(
      await found(`${WRITES_STATE}nodes:
  a:
    kind: set
    values:
      messages: "\${{ [{'role': 'user'}, {'type': 'ai'}, {'x': 1}, {'content': 'y'}] }}"
  two:
    kind: set
    values:
      messages: "\${{ state.free }}"
edges:
  - { from: START, to: a }
  - { from: a, to: two }
  - { from: two, to: END }
`),
    ).toEqual([
      // {'role': 'user'} and {'type': 'ai'}: one finding, as the two are the same.
      `20:22-20:84 error [expression-type] a message written to \`messages\` needs \`content\`: a map without it is no message ${MESSAGE_EXPR_HINT}`,
      `20:22-20:84 error [expression-type] a message written to \`messages\` needs \`role\` and \`content\`: a map without them is no message ${MESSAGE_EXPR_HINT}`,
      `20:22-20:84 error [expression-type] a message written to \`messages\` needs \`role\`: a map without it is no message ${MESSAGE_EXPR_HINT}`,
      '24:22-24:32 error [expression-type] `state.free` is a map of undeclared keys (`type: object`), which is no message for `messages` (hint: declare `role` and `content` among the `properties` of `free`, or write `{ role: user, content: "${{ ... }}" }`)',
    ]);
  });

  it("places a misfit at the whole value for text around an expression, else at the expression without its padding", async () => {
    expect(
      await found(`${WRITES_STATE}nodes:
  a:
    kind: set
    values:
      n: "count \${{ state.n }}"
      s: "\${{   state.n }}"
${ONE_NODE}`),
    ).toEqual([
      "20:10-20:32 error [expression-type] cannot write `string` to `n`, which takes `int` (hint: convert it with `int(…)`)",
      "21:17-21:24 error [expression-type] cannot write `int` to `s`, which takes `string` (hint: convert it with `string(…)`)",
    ]);
  });

  it("places a finding inside a folded template at its expression", async () => {
    expect(
      await found(`${WRITES_STATE}models:
  default: { model: "scripted:t" }
nodes:
  a:
    kind: llm
    prompt: >
      Ticket:
      \${{ state.nope }}
      and \${{ state.s + 1 }}
${ONE_NODE}`),
    ).toEqual([
      "23:17-23:21 error [unknown-state-key] `nope` is not a state channel (hint: declare it under `state`)",
      "24:15-24:26 error [expression-type] `+` cannot combine `string` and `int` (hint: convert the other side with `string(…)`)",
    ]);
  });
});

describe("a node's whole result written to a channel (`write: channel`)", () => {
  it("checks the answer's text, the structured output, the resume value and the error", async () => {
    expect(
      await found(`version: 1
name: t
state:
  messages: { type: messages }
  s: { type: string }
  n: { type: integer }
  rec: { type: object, properties: { a: { type: string } } }
  errors: { type: object }
  total: { type: any, reducer: sum }
models:
  default: { model: "scripted:t" }
tools:
  search: { module: ./tools.ts }
nodes:
  ask: { kind: llm, prompt: hi, write: n }
  chat: { kind: llm, prompt: hi, write: messages }
  talk: { kind: agent, prompt: hi, tools: [search], write: s }
  count: { kind: agent, prompt: hi, tools: [search], write: n }
  shape:
    kind: llm
    prompt: hi
    output: { schema: { type: object, properties: { a: { type: integer } } } }
    write: rec
  shaped:
    kind: agent
    prompt: hi
    tools: [search]
    output: { schema: { type: object, properties: { a: { type: string } } } }
    write: n
  fits:
    kind: llm
    prompt: hi
    output: { schema: { type: object, properties: { a: { type: string } } } }
    write: rec
  wait: { kind: interrupt, payload: ok?, schema: { type: integer }, write: s }
  waitany: { kind: interrupt, payload: ok?, write: s }
  sumup: { kind: llm, prompt: hi, write: total }
  fail: { kind: set, values: { s: x }, on_error: { write: n } }
  failok: { kind: set, values: { s: x }, on_error: { write: errors } }
  nowhere: { kind: llm, prompt: hi, write: nope }
edges:
  - { from: START, to: ask }
  - { from: ask, to: chat }
  - { from: chat, to: talk }
  - { from: talk, to: count }
  - { from: count, to: shape }
  - { from: shape, to: shaped }
  - { from: shaped, to: fits }
  - { from: fits, to: wait }
  - { from: wait, to: waitany }
  - { from: waitany, to: sumup }
  - { from: sumup, to: fail }
  - { from: fail, to: failok }
  - { from: failok, to: nowhere }
  - { from: nowhere, to: END }
`),
    ).toEqual([
      "13:21-13:31 error [unknown-module] module `./tools.ts` does not exist",
      '15:40-15:41 error [expression-type] node `ask` writes its answer\'s text (`string`) to `n`, which takes `int` (hint: write a map that converts it, e.g. `write: { n: "${{ ... }}" }`)',
      '18:61-18:62 error [expression-type] node `count` writes its answer\'s text (`string`) to `n`, which takes `int` (hint: write a map that converts it, e.g. `write: { n: "${{ ... }}" }`)',
      '23:12-23:15 error [expression-type] node `shape` writes its structured output (`{a: int}`) to `rec`, which takes `{a: string}` (hint: write a map that converts it, e.g. `write: { rec: "${{ ... }}" }`)',
      '29:12-29:13 error [expression-type] node `shaped` writes its structured output (`{a: string}`) to `n`, which takes `int` (hint: write a map that converts it, e.g. `write: { n: "${{ ... }}" }`)',
      '35:76-35:77 error [expression-type] node `wait` writes the resume value (`int`) to `s`, which takes `string` (hint: write a map that converts it, e.g. `write: { s: "${{ ... }}" }`)',
      '37:42-37:47 error [reducer-write] node `sumup` writes its answer\'s text (`string`) to `total`: its reducer `sum` adds numbers, so it takes a number (hint: write a map that converts it, e.g. `write: { total: "${{ ... }}" }`, or declare `total` with another reducer)',
      '38:59-38:60 error [expression-type] the `on_error` of node `fail` writes the error (`Error`) to `n`, which takes `int` (hint: write a map that converts it, e.g. `write: { n: "${{ ... }}" }`)',
      "40:44-40:48 error [unknown-state-key] node `nowhere` writes `nope`, which is not a state channel (hint: declare `nope` under `state`)",
    ]);
  });
});

describe("every place an expression stands, in its scope", () => {
  it("checks models, tools' bind, node prompts, writes, args, payloads, subgraphs, on_error and map.with", async () => {
    expect(
      await found(`version: 1
name: t
state:
  messages: { type: messages }
  s: { type: string }
  n: { type: integer }
  l: { type: array, items: { type: integer } }
context:
  key: { type: string }
  seats: { type: integer }
models:
  default:
    model: "scripted:t"
    api_key: "\${{ 3 }}"
    base_url: "\${{ size(env.URL) }}"
    user: 3
    organization: "\${{ state.s }}"
    headers: { x-a: "\${{ context.seats }}", x-b: "\${{ env.B }}", x-c: 4 }
    metadata: { who: "\${{ context.seats }}" }
    other: { who: "\${{ context.seats }}" }
tools:
  search:
    module: ./tools.ts
    bind: { user: "\${{ state.nope }}", n: "\${{ output }}" }
nodes:
  ask:
    kind: llm
    system: "\${{ state.nope1 }}"
    prompt: "\${{ item }}"
    messages: "\${{ state.n }}"
    write: { s: "\${{ output.text }}", n: "\${{ output.nope2 }}" }
  act: { kind: tool, tool: search, args: { q: "\${{ state.nope3 }}" }, write: { n: "\${{ result }}" } }
  wait: { kind: interrupt, payload: { q: "\${{ state.nope4 }}" }, write: { n: "\${{ resume.x }}" } }
  sub:
    kind: subgraph
    graph: ./sub.yaml
    input: { q: "\${{ state.nope5 }}" }
    output: { s: "\${{ output.x }}", n: "\${{ resume }}" }
  each: { kind: set, values: { messages: hi } }
  oops:
    kind: set
    values: { s: x }
    on_error: { write: { s: "\${{ error.message }}", n: "\${{ error.message }}" } }
edges:
  - { from: START, to: ask }
  - { from: ask, to: act }
  - { from: act, to: wait }
  - { from: wait, to: sub }
  - { from: sub, to: oops }
  - from: oops
    map: { over: state.l, to: each, with: { s: "\${{ item }}", n: "\${{ item }}" } }
  - { from: each, to: END }
`),
    ).toEqual([
      "14:19-14:20 error [expression-type] model `default`: `api_key` takes a `string`, not `int` (hint: convert it with `string(...)`, or interpolate it into text)",
      "15:20-15:33 error [expression-type] model `default`: `base_url` takes a `string`, not `int` (hint: convert it with `string(...)`, or interpolate it into text)",
      "16:11-16:12 error [expression-type] model `default`: `user` takes a `string`, not `int` (hint: convert it with `string(...)`, or interpolate it into text)",
      "16:11-16:12 error [schema] expected string, got number (hint: Text that may contain `${{ expr }}`. A string that is exactly one `${{ expr }}` takes the expression's typed value; otherwise each expression is interpolated as text.)",
      "17:24-17:29 error [expression-type] `state` is not available in `models`: a model is set up from the environment and the run's context, before any node writes the state (hint: in scope here: `env` and `context`)",
      "18:26-18:39 error [expression-type] model `default`: `headers.x-a` takes a `string`, not `int` (hint: convert it with `string(...)`, or interpolate it into text)",
      "18:71-18:72 error [expression-type] model `default`: `headers.x-c` takes a `string`, not `int` (hint: convert it with `string(...)`, or interpolate it into text)",
      "18:71-18:72 error [schema] expected string, got number (hint: Text that may contain `${{ expr }}`. A string that is exactly one `${{ expr }}` takes the expression's typed value; otherwise each expression is interpolated as text.)",
      "19:27-19:40 error [expression-type] model `default`: `metadata.who` takes a `string`, not `int` (hint: convert it with `string(...)`, or interpolate it into text)",
      "23:13-23:23 error [unknown-module] module `./tools.ts` does not exist",
      "24:30-24:34 error [unknown-state-key] `nope` is not a state channel (hint: declare it under `state`)",
      "24:48-24:54 error [expression-type] `output` is not available in the `bind` of tool `search`: it exists in the `write` of `llm` and `agent` nodes and in the `output` of `subgraph` nodes (hint: in scope here: `state` and `context`)",
      "28:24-28:29 error [unknown-state-key] `nope1` is not a state channel (hint: declare it under `state`)",
      "29:18-29:22 error [expression-type] `item` is not available in the prompt of node `ask`: it exists in `map.with` (hint: in scope here: `state` and `context`)",
      "30:20-30:27 error [expression-type] `messages` must be a list of messages, not `int` (hint: give the whole list as one expression, e.g. `${{ state.messages }}`)",
      "31:54-31:59 error [expression-type] `output` (a `Message`) has no field `nope2` (hint: its fields: `type`, `content`, `text`, `tool_calls`, `tool_call_id`, `status`, `name` and `id`)",
      "32:58-32:63 error [unknown-state-key] `nope3` is not a state channel (hint: declare it under `state`)",
      "33:53-33:58 error [unknown-state-key] `nope4` is not a state channel (hint: declare it under `state`)",
      "36:12-36:22 error [unknown-module] graph `./sub.yaml` does not exist",
      "37:28-37:33 error [unknown-state-key] `nope5` is not a state channel (hint: declare it under `state`)",
      "38:45-38:51 error [expression-type] `resume` is not available in the `output` of node `sub`: it exists in the `write` of `interrupt` nodes (hint: in scope here: `state`, `context` and `output`)",
      "43:61-43:74 error [expression-type] cannot write `string` to `n`, which takes `int` (hint: convert it with `int(…)`)",
      "51:53-51:57 error [expression-type] cannot write `int` to `s`, which takes `string` (hint: convert it with `string(…)`)",
    ]);
  });
});

describe("what fits where", () => {
  it("lets uint stand for int and double, null for an item, maps and records fit each other by their values, and nothing else", async () => {
    expect(
      await found(`version: 1
name: t
state:
  messages: { type: messages }
  s: { type: string }
  n: { type: integer }
  d: { type: number }
  l: { type: array, items: { type: string } }
  m: { type: object, properties: { a: { type: string }, b: { type: integer } } }
  texts: { type: object, additionalProperties: { type: string } }
  ms: { type: object, properties: { a: { type: string } } }
nodes:
  fits:
    kind: set
    values:
      n: "\${{ 1u }}"
      d: "\${{ 1u }}"
      l: "\${{ ['a'] }}"
      texts: "\${{ {'k': state.m.a} }}"
      m: "\${{ {'a': 'x'} }}"
      messages: "\${{ [{'role': 'user', 'content': 'x'}] }}"
  fits2:
    kind: set
    values:
      l: "\${{ [null] }}"
      texts: "\${{ state.ms }}"
      m: "\${{ {'a': null} }}"
  misfits:
    kind: set
    values:
      l: "\${{ [1] }}"
      texts: "\${{ state.m }}"
      m: "\${{ {'c': [1]} }}"
      messages: "\${{ [{'content': 1}] }}"
      s: "\${{ timestamp('2020-01-01T00:00:00Z') }}"
      n: "\${{ duration('1s') }}"
      d: "\${{ b'x' }}"
  misfits2:
    kind: set
    values:
      messages: "\${{ [state.ms] }}"
      texts: "\${{ {'k': [1]} }}"
edges:
  - { from: START, to: fits }
  - { from: fits, to: fits2 }
  - { from: fits2, to: misfits }
  - { from: misfits, to: misfits2 }
  - from: misfits2
    route:
      - { when: "null", to: END }
      - { default: END }
`),
    ).toEqual([
      "31:15-31:18 error [expression-type] cannot write `list<int>` to `l`, which takes `list<string>`",
      "32:19-32:26 error [expression-type] cannot write `{a: string, b: int}` to `texts`, which takes `map<string, string>`",
      "33:15-33:25 error [expression-type] cannot write `map<string, list<int>>` to `m`, which takes `{a: string, b: int}`",
      "34:22-34:38 error [reducer-write] cannot write `list<map<string, int>>` to `messages`: its reducer `messages` merges chat messages, so it takes a message (a string, or a map with `role` and `content`) or a list of them (hint: write a string, a map with `role` and `content` (e.g. `{ role: user, content: hi }`), or a list of them)",
      "35:15-35:48 error [expression-type] cannot write `timestamp` to `s`, which takes `string`",
      "36:15-36:29 error [expression-type] cannot write `duration` to `n`, which takes `int`",
      "37:15-37:19 error [expression-type] cannot write `bytes` to `d`, which takes `double`",
      "41:22-41:32 error [expression-type] cannot write `list<{a: string}>` to `messages`, which takes a message (a string, or a map with `role` and `content`) or a list of them (hint: write a string, a map with `role` and `content` (e.g. `{ role: user, content: hi }`), or a list of them)",
      "42:19-42:29 error [expression-type] cannot write `map<string, list<int>>` to `texts`, which takes `map<string, string>`",
      '50:18-50:22 error [expression-type] `when` must be a `bool`, not `null` (hint: compare it, e.g. `state.x == "value"` or `size(state.items) > 0`)',
    ]);
  });
});

describe("literal values in their places", () => {
  it("checks enums inside lists, a message channel's own hint, a Send payload against the channel's type, a model's text options", async () => {
    expect(
      await found(`version: 1
name: t
state:
  messages: { type: messages }
  s: { type: string }
  notes: { type: array, items: { type: string }, reducer: append, default: [] }
  tags: { type: array, items: { type: string, enum: [red, blue] }, reducer: append, default: [] }
  bag: { type: any }
  ln: { type: array, items: { type: integer }, reducer: append, default: [] }
models:
  default: { model: "scripted:t", user: null, headers: plain, metadata: { a: b } }
nodes:
  a:
    kind: set
    values:
      messages: "\${{ 3 }}"
      notes: whatever
      tags: [red, green]
      bag: [1, { x: [y] }]
  b2:
    kind: set
    values:
      messages: [{ role: user, content: hi, name: ann }]
      tags: blu
  each: { kind: set, values: { notes: x } }
edges:
  - { from: START, to: a }
  - { from: a, to: b2 }
  - from: b2
    map: { over: "[1, 2]", to: each, with: { ln: "\${{ item }}", messages: { content: x } } }
  - { from: each, to: END }
`),
    ).toEqual([
      "11:41-11:45 error [expression-type] model `default`: `user` takes a `string`, not `null` (hint: convert it with `string(...)`, or interpolate it into text)",
      "11:41-11:45 error [schema] expected string, got null (hint: Text that may contain `${{ expr }}`. A string that is exactly one `${{ expr }}` takes the expression's typed value; otherwise each expression is interpolated as text.)",
      '11:56-11:61 error [schema] expected object, got string (hint: Extra HTTP headers on every request to the provider (OpenAI-compatible providers and `anthropic`); values may read `context` to differ per run, e.g. `x-litellm-end-user: "${{ context.account_id }}"`.)',
      "16:22-16:23 error [expression-type] cannot write `int` to `messages`, which takes a message (a string, or a map with `role` and `content`) or a list of them (hint: write a string, a map with `role` and `content` (e.g. `{ role: user, content: hi }`), or a list of them)",
      "18:19-18:24 error [expression-type] `green` is not one of `red` or `blue`",
      "24:13-24:16 error [expression-type] `blu` is not one of `red` or `blue` (hint: did you mean `blue`?)",
      "30:55-30:59 error [expression-type] cannot write `int` to `ln`, which takes `list<int>` (hint: wrap it in a list: `[…]`)",
      "30:75-30:89 error [expression-type] cannot write a map to `messages`, which takes `list<Message>`",
    ]);
  });
});

describe("what is no type error", () => {
  it("an answer's messages into a message channel, a null resume, channels named like Object's methods", async () => {
    // Only the channels' own rules speak: no \`expression-type\` finding for a name on Object.prototype.
    expect(
      await found(`version: 1
name: t
state:
  hist: { type: messages, reducer: replace }
  s: { type: string }
models:
  default: { model: "scripted:t" }
nodes:
  ask: { kind: llm, prompt: hi, write: hist }
  wait: { kind: interrupt, payload: ok?, schema: { type: "null" }, write: s }
  odd: { kind: set, values: { toString: x, constructor: [1], hasOwnProperty: "\${{ 1 }}" } }
edges:
  - { from: START, to: ask }
  - { from: ask, to: wait }
  - { from: wait, to: odd }
  - { from: odd, to: END }
`),
    ).toEqual([
      "11:31-11:39 error [unknown-state-key] node `odd` writes `toString`, which is not a state channel (hint: declare `toString` under `state`)",
      "11:44-11:55 error [unsafe-key] key `constructor` is not allowed in a spec (hint: rename it)",
      "11:62-11:76 error [unknown-state-key] node `odd` writes `hasOwnProperty`, which is not a state channel (hint: declare `hasOwnProperty` under `state`)",
    ]);
  });
});

describe("node-local variables, typed by the node", () => {
  it("types output (a message, or the structured output), resume (its schema), result and error", async () => {
    expect(
      await found(`version: 1
name: t
state:
  messages: { type: messages }
  s: { type: string }
  n: { type: integer }
models:
  default: { model: "scripted:t" }
  plain: "scripted:p"
tools:
  search: { module: ./tools.ts }
nodes:
  helper: { kind: agent, prompt: hi, tools: [search], write: { n: "\${{ output.text }}" } }
  shaped:
    kind: agent
    prompt: hi
    tools: [search]
    output: { schema: { type: object, properties: { a: { type: integer } } } }
    write: { s: "\${{ output.a }}" }
  shape:
    kind: llm
    prompt: hi
    output: { schema: { type: object, properties: { a: { type: integer } } } }
    write: { s: "\${{ output.a }}", n: "\${{ output.b }}" }
  wait:
    kind: interrupt
    payload: ok?
    schema: { type: object, properties: { ok: { type: boolean } } }
    write: { s: "\${{ resume.ok }}" }
  act: { kind: tool, tool: search, args: {}, write: { s: "\${{ result.anything }}" } }
  fail:
    kind: set
    values: { s: x }
    on_error: { write: { n: "\${{ error.message }}", s: "\${{ error.nope }}" } }
edges:
  - { from: START, to: helper }
  - { from: helper, to: shaped }
  - { from: shaped, to: shape }
  - { from: shape, to: wait }
  - { from: wait, to: act }
  - { from: act, to: fail }
  - { from: fail, to: END }
`),
    ).toEqual([
      "9:10-9:22 error [schema] expected object, got string (hint: A chat model. `model` goes through LangChain's initChatModel; `allow` lists the models a run may choose instead; `price` is what it costs; every other key passes through to the model's constructor. Strings may use `${{ env.NAME }}`, and `${{ context.KEY }}` to take a value from each run (a tenant's key, its user).)",
      "11:21-11:31 error [unknown-module] module `./tools.ts` does not exist",
      "13:72-13:83 error [expression-type] cannot write `string` to `n`, which takes `int` (hint: convert it with `int(…)`)",
      "19:22-19:30 error [expression-type] cannot write `int` to `s`, which takes `string` (hint: convert it with `string(…)`)",
      "24:22-24:30 error [expression-type] cannot write `int` to `s`, which takes `string` (hint: convert it with `string(…)`)",
      "24:51-24:52 error [expression-type] `output` has no field `b` (hint: did you mean `a`?)",
      "29:22-29:31 error [expression-type] cannot write `bool` to `s`, which takes `string` (hint: convert it with `string(…)`)",
      "34:34-34:47 error [expression-type] cannot write `string` to `n`, which takes `int` (hint: convert it with `int(…)`)",
      "34:67-34:71 error [expression-type] `error` (an `Error`) has no field `nope` (hint: did you mean `node`?)",
    ]);
  });
});

describe("keys a node's kind does not have, and odd shapes", () => {
  it("checks an agent's prompt, names each node place in its scope, and takes null for an item", async () => {
    expect(
      await found(`version: 1
name: t
state:
  messages: { type: messages }
  s: { type: string }
  l: { type: array, items: { type: string } }
models:
  default: { model: "scripted:t" }
tools:
  search: { module: ./tools.ts }
nodes:
  helper: { kind: agent, prompt: "\${{ state.nope }}", tools: [search], write: { s: "\${{ item }}" } }
  wait: { kind: interrupt, payload: "\${{ output }}", write: { l: [null, x] } }
  sub: { kind: subgraph, graph: ./sub.yaml, input: { q: "\${{ result }}" } }
  ask: { kind: llm, prompt: hi, values: { s: "\${{ state.nope2 }}" } }
edges:
  - { from: START, to: helper }
  - { from: helper, to: wait }
  - { from: wait, to: sub }
  - { from: sub, to: ask }
  - { from: ask, to: END }
`),
    ).toEqual([
      "10:21-10:31 error [unknown-module] module `./tools.ts` does not exist",
      "12:45-12:49 error [unknown-state-key] `nope` is not a state channel (hint: declare it under `state`)",
      "12:89-12:93 error [expression-type] `item` is not available in the `write` of node `helper`: it exists in `map.with` (hint: in scope here: `state`, `context` and `output`)",
      "13:42-13:48 error [expression-type] `output` is not available in the `payload` of node `wait`: it exists in the `write` of `llm` and `agent` nodes and in the `output` of `subgraph` nodes (hint: in scope here: `state` and `context`)",
      "14:33-14:43 error [unknown-module] graph `./sub.yaml` does not exist",
      "14:62-14:68 error [expression-type] `result` is not available in the `input` of node `sub`: it exists in the `write` of `tool` nodes (hint: in scope here: `state` and `context`)",
      "15:33-15:39 error [schema] unknown key `values` in node `ask` (hint: allowed here: cache, defer, description, kind, messages, model, on_error, output, prompt, retry, system, timeout_ms, tools, write)",
    ]);
  });

  it("reads no expression in a key of another kind, and keeps each place's name, scope and rule", async () => {
    // Each misplaced key (a set node's prompt, an llm's schema, an interrupt's output) is the
    // schema's one finding: nothing runs it, so it is not type-checked as if it did.
    expect(
      await found(`version: 1
name: t
state:
  messages: { type: messages }
  log: { type: array, reducer: messages }
  s: { type: string }
  notes: { type: array, items: { type: string }, reducer: append, default: [] }
  grid: { type: array, items: { type: array, items: { type: integer } } }
models:
  default: { model: "scripted:t" }
nodes:
  odd:
    kind: set
    values: { messages: [[{ content: hi }], { x: 1 }], log: [{ content: hi }], grid: "\${{ [1] }}" }
    system: "\${{ state.n1 }}"
    prompt: "\${{ state.n2 }}"
    messages: "\${{ state.n3 }}"
    args: { q: "\${{ state.n4 }}" }
    payload: { q: "\${{ state.n5 }}" }
    input: { q: "\${{ state.n6 }}" }
    on_error: { write: { notes: "\${{ error.message }}", s: "\${{ output }}" } }
  ask: { kind: llm, prompt: "\${{ {'__proto__': 1}.size() > 0 }}", schema: { type: integer }, write: s }
  wait: { kind: interrupt, payload: "\${{ state.s.matches('(?=a)') }}", output: { schema: { type: object, properties: { a: { type: integer } } } }, write: notes }
  each: { kind: llm, prompt: hi, messages: "\${{ null }}", write: toString }
edges:
  - { from: START, to: odd }
  - { from: odd, to: ask }
  - from: ask
    map: { over: "output", to: wait, with: { s: "\${{ output }}" } }
  - from: wait
    map: { over: "null", to: each }
  - from: odd
    map: { over: 3, to: each }
  - from: each
    route:
      - hello
      - { default: END }
`),
    ).toEqual([
      "5:32-5:40 error [reducer-type] reducer `messages` merges chat messages, but the channel's type is `array` (hint: set `type: messages`, or use `append`, `union`, `replace` (or a reducer of yours))",
      "14:26-14:43 error [expression-type] cannot write a list to an item of `messages`, which takes `string` or `{role, content}` or `{type, content}`",
      '14:45-14:53 error [expression-type] a message written to `messages` needs `role` and `content`: a map without them is no message (hint: e.g. `{ role: assistant, content: "${{ state.answer }}" }`, or a plain string)',
      '14:62-14:77 error [expression-type] a message written to `log` needs `role`: a map without it is no message (hint: e.g. `{ role: assistant, content: "${{ state.answer }}" }`, or a plain string)',
      "14:91-14:94 error [expression-type] cannot write `list<int>` to `grid`, which takes `list<list<int>>` (hint: wrap it in a list: `[…]`)",
      "15:5-15:11 error [schema] unknown key `system` in node `odd` (hint: allowed here: cache, defer, description, kind, on_error, retry, timeout_ms, values)",
      "16:5-16:11 error [schema] unknown key `prompt` in node `odd` (hint: allowed here: cache, defer, description, kind, on_error, retry, timeout_ms, values)",
      "17:5-17:13 error [schema] unknown key `messages` in node `odd` (hint: allowed here: cache, defer, description, kind, on_error, retry, timeout_ms, values)",
      "18:5-18:9 error [schema] unknown key `args` in node `odd` (hint: allowed here: cache, defer, description, kind, on_error, retry, timeout_ms, values)",
      "19:5-19:12 error [schema] unknown key `payload` in node `odd` (hint: allowed here: cache, defer, description, kind, on_error, retry, timeout_ms, values)",
      "20:5-20:10 error [schema] unknown key `input` in node `odd` (hint: allowed here: cache, defer, description, kind, on_error, retry, timeout_ms, values)",
      "21:65-21:71 error [expression-type] `output` is not available in the `on_error` of node `odd`: it exists in the `write` of `llm` and `agent` nodes and in the `output` of `subgraph` nodes (hint: in scope here: `state`, `context` and `error`)",
      "22:35-22:46 error [unsafe-key] a map key `__proto__` is refused (hint: such keys could reach an object prototype; choose another key name)",
      "22:67-22:73 error [schema] unknown key `schema` in node `ask` (hint: allowed here: cache, defer, description, kind, messages, model, on_error, output, prompt, retry, system, timeout_ms, tools, write)",
      "23:58-23:65 error [regex] the pattern uses lookahead (`(?=`), which the linear-time regex engine does not run (hint: patterns run on RE2, which matches in linear time and so has no backreferences or lookaround: rewrite the pattern without them, or check the value in a function node)",
      "23:72-23:78 error [schema] unknown key `output` in node `wait` (hint: allowed here: cache, defer, description, kind, on_error, payload, retry, schema, timeout_ms, write)",
      "24:49-24:53 error [expression-type] `messages` must be a list of messages, not `null` (hint: give the whole list as one expression, e.g. `${{ state.messages }}`)",
      "24:66-24:74 error [unknown-state-key] node `each` writes `toString`, which is not a state channel (hint: declare `toString` under `state`)",
      "29:19-29:25 error [expression-type] `output` is not available in `map.over`: it exists in the `write` of `llm` and `agent` nodes and in the `output` of `subgraph` nodes (hint: in scope here: `state` and `context`)",
      "29:54-29:60 error [expression-type] `output` is not available in `map.with`: it exists in the `write` of `llm` and `agent` nodes and in the `output` of `subgraph` nodes (hint: in scope here: `state`, `context` and `item`)",
      "31:19-31:23 error [expression-type] `map.over` must be a list, not `null`",
      "33:18-33:19 error [schema] expected string, got number (hint: A bare CEL expression (no `${{ }}`).)",
      "36:9-36:14 error [schema] a route case is either `{ when: CEL, to: node }` or `{ default: node }`",
    ]);
  });
});

describe("a catalog's tools", () => {
  const dir = mkdtempSync(join(tmpdir(), "graphspec-expr-catalog-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("checks the bind of the tools a node names (in tools, approve or tool), not of the others", async () => {
    writeFileSync(join(dir, "package.json"), "{}");
    writeFileSync(join(dir, "t.mjs"), "export default async () => 'ok';\n");
    const tool = (name: string) => `  ${name}:
    module: t.mjs
    description: d
    schema: { type: object, properties: { who: { type: string } } }
    bind: { who: "\${{ context.who }}" }
`;
    const names = ["listed", "approved", "called", "unused"];
    writeFileSync(join(dir, "catalog.yaml"), `tools:\n${names.map(tool).join("")}`);
    const spec = join(dir, "app.yaml");
    writeFileSync(
      spec,
      `version: 1
name: app
catalog: catalog.yaml
state:
  messages: { type: messages }
  out: { type: any }
models:
  default: { model: "scripted:m" }
nodes:
  helper: { kind: agent, prompt: hi, tools: [listed], approve: [approved] }
  call: { kind: tool, tool: called, args: {}, write: out }
edges:
  - { from: START, to: helper }
  - { from: helper, to: call }
  - { from: call, to: END }
`,
    );
    const ds = await validate(await readSpec(spec, { root: dir, file: "app.yaml" }));
    const undeclared =
      "error [unknown-state-key] `who` is not declared in `context` (hint: declare it under `context`)";
    expect(ds.map((d) => `${d.file} ${formatExpected([d])[0]}`)).toEqual([
      "app.yaml 10:65-10:73 error [unknown-tool] `approved` needs approval but is not one of this node's `tools`, so the agent can never call it (hint: add `approved` to `tools`, or remove it from `approve`)",
      `catalog.yaml 6:31-6:34 ${undeclared}`,
      `catalog.yaml 11:31-11:34 ${undeclared}`,
      `catalog.yaml 16:31-16:34 ${undeclared}`,
    ]);
  });
});
