/**
 * Property: whatever the template and whatever the run-time values, compiling and evaluating a
 * template either succeeds or throws the expression stage's own error type — never a cel-js
 * error, a TypeError from a conversion, or anything else a run-time could not attribute.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ExprEnvironment, ExprError } from "../src/expr/index.js";

const env = new ExprEnvironment({
  state: {
    n: { type: "integer" },
    x: { type: "number" },
    s: { type: "string" },
    l: { type: "array", items: { type: "integer" } },
    o: { type: "object", properties: { a: { type: "string" } } },
    any: { type: "any" },
  },
});
const scope = env.scope("a test", { item: { kind: "dyn" } });

/** Pieces that make templates interesting: delimiters, quotes, operators, names, macros. */
const fragment = fc.oneof(
  fc.constantFrom(
    "${{",
    "}}",
    "$${{",
    "{",
    "}",
    '"',
    "'",
    "r'",
    '"""',
    "\\",
    " ",
    "state.n",
    "state.x",
    "state.s",
    "state.l",
    "state.o.a",
    "state.any",
    "state.any.k",
    "item",
    "output",
    "+",
    "-",
    "*",
    "/",
    "%",
    "==",
    "<",
    "&&",
    "?",
    ":",
    "[",
    "]",
    "(",
    ")",
    ",",
    ".",
    "size(",
    ".map(v, v)",
    ".filter(v, v > 0)",
    "int(",
    "string(",
    "double(",
    "0",
    "1",
    "9223372036854775807",
    "2.5",
    "null",
    "true",
  ),
  fc.string({ maxLength: 4 }),
);

const template = fc.array(fragment, { maxLength: 14 }).map((parts) => parts.join(""));
/** Syntactically valid CEL from a small grammar, so checking and evaluation are exercised often. */
const atom = fc.constantFrom(
  "state.n",
  "state.x",
  "state.s",
  "state.l",
  "state.o.a",
  "state.any",
  "state.any.k",
  "item",
  "1",
  "2.5",
  '"t"',
  "null",
  "true",
  "[1, 2]",
  "{'k': 1}",
);
const cel: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    atom,
    fc
      .tuple(
        tie("e"),
        fc.constantFrom("+", "-", "*", "/", "%", "==", "<", "&&", "||", "in"),
        tie("e"),
      )
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie("e").map((a) => `size(${a})`),
    tie("e").map((a) => `string(${a})`),
    tie("e").map((a) => `int(${a})`),
    tie("e").map((a) => `${a}[0]`),
    tie("e").map((a) => `${a}.map(v, v)`),
    fc.tuple(tie("e"), tie("e"), tie("e")).map(([a, b, c]) => `(${a} ? ${b} : ${c})`),
  ),
})).e;
const wellFormed = fc
  .tuple(cel, fc.boolean())
  .map(([e, whole]) => (whole ? `\${{ ${e} }}` : `value: \${{ ${e} }}!`));

const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.integer(),
    fc.double(),
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.bigInt(),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 3 }), tie("value"), { maxKeys: 3 }),
  ),
})).value;

const variables = fc.record({
  state: fc.oneof(
    fc.record(
      { n: jsonish, x: jsonish, s: jsonish, l: jsonish, o: jsonish, any: jsonish },
      { requiredKeys: [] },
    ),
    jsonish,
  ),
  item: jsonish,
});

const evaluate = (text: string, vars: Record<string, unknown>) => {
  try {
    env.compileTemplate(text, scope).evaluate(vars);
  } catch (e) {
    if (!(e instanceof ExprError))
      throw new Error(`not an ExprError for ${JSON.stringify(text)}: ${String(e)}`);
  }
};

describe("template evaluation", () => {
  it("throws nothing but ExprError on arbitrary templates", () => {
    fc.assert(
      fc.property(template, variables, (t, v) => evaluate(t, v)),
      { numRuns: 2000 },
    );
  });

  it("throws nothing but ExprError on well-formed templates over arbitrary values", () => {
    fc.assert(
      fc.property(wellFormed, variables, (t, v) => evaluate(t, v)),
      { numRuns: 2000 },
    );
  });

  it("evaluates well-typed templates to JSON-serialisable values", () => {
    const ok = env.compileTemplate("${{ [state.n + 1, state.s, state.o] }}", scope);
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 1000 }), fc.string(), fc.string(), (n, s, a) => {
        const value = ok.evaluate({ state: { n, s, o: { a } } });
        expect(value).toEqual([n + 1, s, { a }]);
        expect(JSON.parse(JSON.stringify(value))).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });
});
