/** What a run takes and gives: input and output keys, context, limits — and refusing bad ones. */
import { describe, expect, it } from "vitest";
import { CompileError, compile } from "../../src/compile/index.js";
import { rejection, specDoc } from "./helpers.js";

const spec = specDoc(`version: 1
name: t
state:
  question: { type: string, minLength: 1 }
  tags: { type: array, items: { type: string }, reducer: append, default: [] }
  answer: { type: string }
  internal: { type: integer, default: 0 }
input: [question, tags]
output: [answer, tags]
context:
  user_id: { type: string, required: true }
  locale: { type: string, enum: [en, fr], default: en }
nodes:
  answer_it:
    kind: set
    values:
      answer: "\${{ context.user_id + ' (' + context.locale + '): ' + state.question }}"
      internal: 1
  who: { kind: function, module: ./flaky.ts, export: whoami, writes: [tags] }
edges:
  - { from: START, to: answer_it }
  - { from: answer_it, to: who }
  - { from: who, to: END }
`);

describe("input and output", () => {
  it("returns only the output keys; input items go through the channel's reducer", async () => {
    const g = await compile(spec);
    const out = await g.invoke({ question: "why?", tags: "first" }, { context: { user_id: "u1" } });
    expect(out).toEqual({ answer: "u1 (en): why?", tags: ["first", "user=u1 locale=en"] });
  });

  it("refuses an input key the graph does not accept, with a did-you-mean", async () => {
    const g = await compile(spec);
    const e = await rejection(g.invoke({ questoin: "why?" }, { context: { user_id: "u1" } }));
    expect(e).toMatchObject({
      name: "GraphspecRunError",
      code: "invalid-input",
      field: "questoin",
    });
    expect(e.message).toBe("the run's input has `questoin`, which the graph does not accept");
    expect(e.hint).toBe("did you mean `question`?");
    const e2 = await rejection(g.invoke({ internal: 5 }, { context: { user_id: "u1" } }));
    expect(e2.hint).toBe("the graph's input keys: `question`, `tags`");
  });

  it("refuses input values that do not fit their channel, before any node runs", async () => {
    const g = await compile(spec);
    const e = await rejection(g.invoke({ question: "" }, { context: { user_id: "u1" } }));
    expect(e).toMatchObject({ code: "invalid-input", field: "question" });
    expect(e.message).toBe(
      'the run\'s input wrote "" to `question`: `question` must NOT have fewer than 1 characters',
    );
    const e2 = await rejection(g.invoke("why?" as never, { context: { user_id: "u1" } }));
    expect(e2.message).toBe(
      'the run\'s input must be a mapping from state channels to values, not "why?"',
    );
  });

  it("keeps the input check on copies LangGraph makes (withConfig)", async () => {
    const g = (await compile(spec)).withConfig({ tags: ["copy"] });
    const e = await rejection(g.invoke({ questoin: "x" }, { context: { user_id: "u1" } }));
    expect(e).toMatchObject({ code: "invalid-input" });
  });
});

describe("context", () => {
  it("fills defaults and gives function nodes the same context", async () => {
    const g = await compile(spec);
    const out = await g.invoke({ question: "q" }, { context: { user_id: "u2", locale: "fr" } });
    expect(out.tags).toEqual(["user=u2 locale=fr"]);
  });

  it("a run without a required value fails before the first node does anything", async () => {
    const g = await compile(spec);
    const e = await rejection(g.invoke({ question: "q" }));
    expect(e).toMatchObject({ code: "invalid-context", field: "user_id", node: "answer_it" });
    expect(e.message).toBe("the run's context is missing `user_id`, which the spec requires");
  });

  it("checks context values against their declarations", async () => {
    const g = await compile(spec);
    const e = await rejection(
      g.invoke({ question: "q" }, { context: { user_id: "u", locale: "de" } }),
    );
    expect(e).toMatchObject({ code: "invalid-context", field: "locale" });
    expect(e.message).toBe('the run\'s context: `context.locale` must be one of "en", "fr"');
  });
});

describe("writes lists", () => {
  it("a function node writing outside its `writes` fails", async () => {
    const g = await compile(
      specDoc(`version: 1
name: t
state:
  tags: { type: array, items: { type: string }, reducer: append, default: [] }
  other: { type: string }
nodes:
  a: { kind: function, module: ./flaky.ts, export: whoami, writes: [other] }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
`),
    );
    const e = await rejection(g.invoke({}));
    expect(e).toMatchObject({ code: "invalid-write", field: "tags", node: "a" });
    expect(e.message).toBe("node `a` wrote `tags`, which its `writes` list does not name");
  });
});

describe("limits and refusals", () => {
  it("limits.recursion becomes the run's recursion limit", async () => {
    const g = await compile(
      specDoc(`version: 1
name: t
state:
  n: { type: integer, reducer: sum, default: 0 }
nodes:
  loop: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: loop }
  - from: loop
    route:
      - { when: "state.n < 100", to: loop }
      - { default: END }
limits: { recursion: 5 }
`),
    );
    const e = await rejection(g.invoke({}));
    // graphspec's code, as the executor reports it; LangGraph's own error is the cause.
    expect(e.name).toBe("GraphspecRunError");
    expect(e).toMatchObject({ code: "recursion-limit" });
    expect(e.message).toMatch(/Recursion limit of 5 reached/);
    expect((e.cause as Error).name).toBe("GraphRecursionError");
  });

  it("refuses a spec with errors, listing them with file:line:col", async () => {
    const e = await rejection(
      compile(
        specDoc(`version: 1
name: t
state:
  a: { type: string }
nodes:
  x: { kind: set, values: { b: 1 } }
edges:
  - { from: START, to: x }
  - { from: x, to: END }
`),
      ),
    );
    expect(e).toBeInstanceOf(CompileError);
    expect(e.message).toBe(
      "test/fixtures/compile/core/t.yaml has 1 error and cannot be compiled:\n" +
        "test/fixtures/compile/core/t.yaml:6:29: node `x` writes `b`, which is not a state channel [unknown-state-key]",
    );
    expect((e as unknown as CompileError).diagnostics).toHaveLength(1);
  });
});
