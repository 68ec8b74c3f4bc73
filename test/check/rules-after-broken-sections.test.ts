/**
 * Which rules run when the schema finds a section broken (src/check/rule-sections.ts): a rule that
 * reads the broken section stays quiet (one misspelled section is one finding, the schema's, not
 * a cascade), and a rule that does not read it still reports.
 */
import { describe, expect, it } from "vitest";
import { parseSpec, validate } from "../../src/index.js";

const rulesFound = async (text: string) =>
  new Set((await validate(parseSpec(text))).map((d) => d.rule));

/** A spec with `modls:` for `models:` (a broken section no rule below reads) and `more`. */
const withModelsMisspelled = (more: string) => `version: 1
name: t
modls:
  default: { model: "scripted:m" }
${more}`;

describe("unknown-state-key", () => {
  it("`stat:` for `state:` is one schema finding, not an unknown key per write", async () => {
    const rules = await rulesFound(`version: 1
name: t
stat:
  answer: { type: string }
nodes:
  a: { kind: set, values: { answer: done } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`);
    expect(rules).toEqual(new Set(["schema"]));
  });

  it("still reports beside a broken section it does not read (`models`)", async () => {
    const rules = await rulesFound(
      withModelsMisspelled(`state:
  answer: { type: string }
nodes:
  a: { kind: set, values: { answr: done } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`),
    );
    expect(rules).toEqual(new Set(["schema", "unknown-state-key"]));
  });
});

describe("expression-type", () => {
  it("with `state` misspelled, expressions are not type-checked", async () => {
    const rules = await rulesFound(`version: 1
name: t
stat:
  n: { type: integer }
nodes:
  a: { kind: set, values: { n: "\${{ 1 + 'a' }}" } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`);
    expect(rules).toEqual(new Set(["schema"]));
  });

  it("still reports beside a broken section it does not read (`models`)", async () => {
    const rules = await rulesFound(
      withModelsMisspelled(`state:
  n: { type: integer }
nodes:
  a: { kind: set, values: { n: "\${{ 1 + 'a' }}" } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`),
    );
    expect(rules).toEqual(new Set(["schema", "expression-type"]));
  });
});

describe("no-path-to-end", () => {
  it("still reports beside a broken section it does not read (`models`)", async () => {
    const rules = await rulesFound(
      withModelsMisspelled(`state:
  n: { type: integer }
nodes:
  a: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: a }
`),
    );
    expect(rules).toEqual(new Set(["schema", "no-path-to-end"]));
  });
});

describe("tool-args", () => {
  it("still reports beside a broken section it does not read (`models`)", async () => {
    const rules = await rulesFound(
      withModelsMisspelled(`state:
  total: { type: number }
tools:
  scale:
    module: ./test/fixtures/modules/math.mjs
    export: multiply
    description: Multiply.
    schema: { type: object, properties: { b: { type: number } } }
nodes:
  a: { kind: tool, tool: scale, args: { b: two }, write: total }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`),
    );
    expect(rules).toEqual(new Set(["schema", "tool-args"]));
  });
});
