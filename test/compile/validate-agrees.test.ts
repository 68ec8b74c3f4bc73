/**
 * What `validate` passes compiles, and what it refuses compile refuses with a CompileError (never
 * LangGraph's or JavaScript's own error): issue 13's holes in the spec's own rules, each through
 * the package entry (`validate`, `compile`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CompileError, compile, type Diagnostic, loadSpec, validate } from "../../src/index.js";
import { specDoc } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-agrees-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;
/** Writes `text` as a spec file of its own (and `others` beside it), and loads it. */
async function specFile(text: string, others: Record<string, string> = {}) {
  const folder = join(dir, `p${count++}`);
  mkdirSync(folder);
  for (const [name, body] of Object.entries(others)) writeFileSync(join(folder, name), body);
  writeFileSync(join(folder, "graph.yaml"), text);
  return loadSpec(join(folder, "graph.yaml"), { root: folder });
}

const errors = (ds: readonly Diagnostic[]) =>
  ds
    .filter((d) => d.severity === "error")
    .map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`);
const warnings = (ds: readonly Diagnostic[]) =>
  ds.filter((d) => d.severity === "warning").map((d) => `${d.rule} ${d.message}`);

/** The error compile rejects with, or undefined when it compiles. */
async function compileError(
  doc: Awaited<ReturnType<typeof specFile>>,
  validateFirst = true,
): Promise<unknown> {
  try {
    await compile(doc, { validate: validateFirst });
    return undefined;
  } catch (e) {
    return e;
  }
}

const LOG = `version: 1
name: t
state:
  log: { type: array, items: { type: string }, reducer: append, default: [] }
`;

describe("unreachable nodes: a warning, and compile leaves them out", () => {
  it("a node no edge leads to (and one only it leads to) compiles and runs without them", async () => {
    const doc = await specFile(`${LOG}nodes:
  a: { kind: set, values: { log: a } }
  archive: { kind: set, values: { log: archive } }
  cleanup: { kind: set, values: { log: cleanup } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
  - { from: archive, to: cleanup }
  - { from: cleanup, to: END }
interrupts: { before: [archive] }
`);
    const ds = await validate(doc);
    expect(errors(ds)).toEqual([]);
    expect(warnings(ds)).toHaveLength(2);
    const graph = await compile(doc);
    expect(await graph.invoke({})).toEqual({ log: ["a"] });
    expect(Object.keys(graph.nodes)).not.toContain("archive");
  });

  it("a node behind a join one of whose sources nothing reaches is reported and left out", async () => {
    const doc = await specFile(`${LOG}nodes:
  a: { kind: set, values: { log: a } }
  orphan: { kind: set, values: { log: orphan } }
  joined: { kind: set, values: { log: joined } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
  - { from: [a, orphan], to: joined }
  - { from: joined, to: END }
`);
    const ds = await validate(doc);
    expect(errors(ds)).toEqual([]);
    expect(warnings(ds)).toEqual([
      "unreachable-node node `orphan` is unreachable: no edge leads to it",
      "unreachable-node node `joined` can never run: the join at edges[2] waits until `a` and `orphan` have both run, and no run reaches both",
    ]);
    const graph = await compile(doc);
    expect(await graph.invoke({})).toEqual({ log: ["a"] });
  });

  it("a node reached only through `on_error.goto` is kept", async () => {
    const doc = await specFile(`${LOG}nodes:
  a: { kind: set, values: { log: "\${{ state.log[5] }}" }, on_error: { goto: recover } }
  recover: { kind: set, values: { log: recovered } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
  - { from: recover, to: END }
`);
    expect(warnings(await validate(doc))).toEqual([]);
    const graph = await compile(doc);
    expect(await graph.invoke({})).toEqual({ log: ["recovered"] });
  });

  it("inside a subgraph's child too", async () => {
    const doc = await specFile(
      `${LOG}nodes:
  child: { kind: subgraph, graph: ./child.yaml }
edges:
  - { from: START, to: child }
  - { from: child, to: END }
`,
      {
        "child.yaml": `${LOG}nodes:
  b: { kind: set, values: { log: b } }
  dead: { kind: set, values: { log: dead } }
edges:
  - { from: START, to: b }
  - { from: b, to: END }
  - { from: dead, to: END }
`,
      },
    );
    expect(errors(await validate(doc))).toEqual([]);
    const graph = await compile(doc);
    expect(await graph.invoke({})).toEqual({ log: ["b"] });
  });
});

describe("defaults are values of their channel's own declaration", () => {
  const spec = (state: string) => `version: 1
name: t
state:
${state}
nodes:
  a: { kind: set, values: { log: a } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`;
  const LOG_FIELD = "  log: { type: array, items: { type: string }, reducer: append, default: [] }";

  it.each([
    [
      "an integer with a string default",
      '  count: { type: integer, default: "zero" }',
      'default-type 5:36 the default of `state.count` must be an integer, not the string "zero"',
    ],
    [
      "a default outside the enum",
      "  level: { type: string, enum: [low, high], default: medium }",
      'default-type 5:54 the default of `state.level` must be one of "low", "high"',
    ],
    [
      "a list item of the wrong type",
      "  tags: { type: array, items: { type: string }, default: [ok, 3] }",
      "default-type 5:63 the default of `state.tags` at `1` must be a string, not 3",
    ],
  ])("%s: an error at the default, and compile refuses it", async (_, field, expected) => {
    const doc = await specFile(spec(`${LOG_FIELD}\n${field}`));
    expect(errors(await validate(doc))).toEqual([expected]);
    const e = await compileError(doc, false);
    expect(e).toBeInstanceOf(CompileError);
    expect((e as Error).message).toContain("[default-type]");
  });

  it.each([
    ["5", "  messages: { type: messages, default: 5 }", "5"],
    ["null", "  messages: { type: messages, default: null }", "null"],
  ])(
    "a messages channel with the default %s: an error, and a CompileError without validate",
    async (_, field, shown) => {
      const doc = await specFile(spec(`${LOG_FIELD}\n${field}`));
      expect(errors(await validate(doc))).toEqual([
        `default-type 5:40 the default of a \`messages\` channel must be a list of messages, not ${shown}`,
      ]);
      const e = await compileError(doc, false);
      expect(e).toBeInstanceOf(CompileError);
      expect((e as Error).message).toContain("[default-type]");
    },
  );

  it("a messages default of maps with role and content compiles", async () => {
    const doc = await specFile(
      spec(
        `${LOG_FIELD}\n  messages: { type: messages, default: [{ role: system, content: hi }, hello] }`,
      ),
    );
    expect(errors(await validate(doc))).toEqual([]);
    const graph = await compile(doc);
    const out = await graph.invoke({});
    expect(out.messages).toHaveLength(2);
  });
});

describe("reducers fit their channel's type", () => {
  const spec = (field: string) => `version: 1
name: t
state:
${field}
nodes:
  a: { kind: set, values: { x: "\${{ state.x }}" } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`;
  it.each([
    ["sum", "string", "  x: { type: string, reducer: sum, default: a }"],
    ["max", "boolean", "  x: { type: boolean, reducer: max, default: true }"],
    ["min", "array", "  x: { type: array, reducer: min, default: [] }"],
    ["merge", "array", "  x: { type: array, reducer: merge, default: [] }"],
    ["append", "string", "  x: { type: string, reducer: append, default: a }"],
    ["union", "object", "  x: { type: object, reducer: union, default: {} }"],
    ["messages", "string", "  x: { type: string, reducer: messages }"],
  ])(
    "`%s` on a %s channel: an error at the reducer, and compile refuses it",
    async (reducer, type, field) => {
      const doc = await specFile(spec(field));
      const found = errors(await validate(doc));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(
        new RegExp(
          `^reducer-type 4:\\d+ reducer \`${reducer}\` .*, but the channel's type is \`${type}\`$`,
        ),
      );
      const e = await compileError(doc, false);
      expect(e).toBeInstanceOf(CompileError);
      expect((e as Error).message).toContain("[reducer-type]");
    },
  );

  it("`sum` on an integer, `append` on a list and `merge` on a mapping are fine", async () => {
    const doc = await specFile(`version: 1
name: t
state:
  n: { type: integer, reducer: sum, default: 0 }
  l: { type: array, reducer: append, default: [] }
  m: { type: object, reducer: merge, default: {} }
  y: { type: any, reducer: sum }
nodes:
  a: { kind: set, values: { n: 2, l: [1], m: { k: 1 }, y: 1 } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`);
    expect(errors(await validate(doc))).toEqual([]);
    expect(await (await compile(doc)).invoke({})).toEqual({ n: 2, l: [1], m: { k: 1 }, y: 1 });
  });
});

describe("an llm with both `tools` and `output`", () => {
  it("is an error at its `output` in validate, as compile refuses it", async () => {
    const doc = specDoc(`version: 1
name: t
state:
  messages: { type: messages }
  priority: { type: string }
models:
  default: { model: "scripted:triage" }
tools:
  explode: { module: ./tools.ts, export: explode }
nodes:
  classify:
    kind: llm
    prompt: Classify.
    tools: [explode]
    output: { schema: { type: object, properties: { p: { type: string } } } }
    write: { priority: "\${{ output.p }}" }
edges:
  - { from: START, to: classify }
  - { from: classify, to: END }
`);
    expect(errors(await validate(doc))).toEqual([
      "output-schema 15:5 llm node `classify` has both `tools` and `output`: a model asked for a structured answer cannot also ask for tools",
    ]);
    const e = await compileError(doc, false);
    expect(e).toBeInstanceOf(CompileError);
  });
});

describe("channel names LangGraph keeps for itself", () => {
  it.each([
    "__pregel_tasks",
    "__start__",
    "__root__",
    "__interrupt__",
    "__error__",
    "__resume__",
    "__return__",
    "__overwrite__",
  ])(
    "a state channel `%s`: reserved-name, and a CompileError without validate",
    async (channel) => {
      const doc = await specFile(`version: 1
name: t
state:
  ${channel}: { type: string, default: x }
  log: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  a: { kind: set, values: { log: a } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`);
      const found = errors(await validate(doc));
      expect(found).toEqual([
        expect.stringMatching(
          new RegExp(`^reserved-name 4:3 \`${channel}\` is reserved: channel names starting with`),
        ),
      ]);
      const e = await compileError(doc, false);
      expect(e).toBeInstanceOf(CompileError);
      expect((e as Error).message).toContain("[reserved-name]");
    },
  );
});

describe("writes of a known shape must fit their channel", () => {
  const llm = (state: string, node: string) => `version: 1
name: t
state:
  messages: { type: messages }
${state}
models:
  default: { model: "scripted:chat" }
nodes:
  ask:
    kind: llm
    prompt: Count.
${node}
edges:
  - { from: START, to: ask }
  - { from: ask, to: END }
`;

  it("an llm's text written whole into an integer channel", async () => {
    const doc = await specFile(llm("  count: { type: integer }", "    write: count"));
    expect(errors(await validate(doc))).toEqual([
      "expression-type 12:12 node `ask` writes its answer's text (`string`) to `count`, which takes `int`",
    ]);
  });

  it("an llm's text into a string, any or messages channel is fine", async () => {
    for (const field of [
      "  out: { type: string }",
      "  out: { type: any }",
      "  out: { type: messages }",
    ]) {
      const doc = await specFile(llm(field, "    write: out"));
      expect(errors(await validate(doc))).toEqual([]);
    }
  });

  it("a map without role or content set into a messages channel", async () => {
    const doc = await specFile(`version: 1
name: t
state:
  messages: { type: messages }
nodes:
  a: { kind: set, values: { messages: [{ role: user, content: hi }, { text: hi }, { content: x }] } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`);
    expect(errors(await validate(doc))).toEqual([
      "expression-type 6:69 a message written to `messages` needs `role` and `content`: a map without them is no message",
      "expression-type 6:83 a message written to `messages` needs `role`: a map without it is no message",
    ]);
  });

  it("a number set into a messages channel", async () => {
    const doc = await specFile(`version: 1
name: t
state:
  messages: { type: messages }
nodes:
  a: { kind: set, values: { messages: 5 } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`);
    expect(errors(await validate(doc))).toHaveLength(1);
  });
});

describe("two conditional edges from one node", () => {
  it("a route and a map from the same node compile, and both act", async () => {
    const doc = await specFile(`version: 1
name: t
state:
  log: { type: array, items: { type: string }, reducer: append, default: [] }
  topics: { type: array, items: { type: string }, default: [x, y] }
nodes:
  a: { kind: set, values: { log: a } }
  b: { kind: set, values: { log: b } }
  c: { kind: set, values: { log: c } }
edges:
  - { from: START, to: a }
  - from: a
    route:
      - { default: b }
  - from: a
    map: { over: state.topics, to: c }
  - { from: b, to: END }
  - { from: c, to: END }
`);
    expect(errors(await validate(doc))).toEqual([]);
    const graph = await compile(doc);
    const out = await graph.invoke({});
    expect([...out.log].sort()).toEqual(["a", "b", "c", "c"]);
  });

  it("two routes from the same node compile, and both act", async () => {
    const doc = await specFile(`version: 1
name: t
state:
  log: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  a: { kind: set, values: { log: a } }
  b: { kind: set, values: { log: b } }
  c: { kind: set, values: { log: c } }
edges:
  - { from: START, to: a }
  - from: a
    route:
      - { when: "size(state.log) > 0", to: b }
      - { default: END }
  - from: a
    route:
      - { when: "size(state.log) > 5", to: END }
      - { default: c }
  - { from: b, to: END }
  - { from: c, to: END }
`);
    expect(errors(await validate(doc))).toEqual([]);
    const graph = await compile(doc);
    const out = await graph.invoke({});
    expect([...out.log].sort()).toEqual(["a", "b", "c"]);
  });
});

describe("a `messages` channel that holds no messages", () => {
  it.each([
    ["a tools node", "  alpha: { kind: tools }", "runs the tool calls in"],
    [
      "an llm without write",
      '  alpha: { kind: llm, model: m, prompt: "hi" }',
      "appends its answer to",
    ],
  ])("%s over `type: array, reducer: append`: an error at the node", async (_, node, what) => {
    const doc = await specFile(`version: 1
name: t
models: { m: { model: "scripted:m" } }
state:
  messages: { type: array, reducer: append }
nodes:
${node}
edges:
  - { from: START, to: alpha }
  - { from: alpha, to: END }
`);
    expect(errors(await validate(doc))).toEqual([
      `unknown-state-key 7:3 node \`alpha\` ${what} the \`messages\` channel, which is \`type: array\` with \`reducer: append\`, not a channel of messages`,
    ]);
  });

  it("a channel of messages is fine", async () => {
    const doc = await specFile(`version: 1
name: t
state:
  messages: { type: messages, default: [] }
nodes:
  alpha: { kind: tools }
edges:
  - { from: START, to: alpha }
  - { from: alpha, to: END }
`);
    expect(errors(await validate(doc))).toEqual([]);
  });
});
