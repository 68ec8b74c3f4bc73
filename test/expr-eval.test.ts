/** Evaluating checked expressions on JSON-like values, and the errors evaluation raises. */
import { describe, expect, it } from "vitest";
import { ExprEnvironment, ExprError, ExprEvalError, MESSAGE_TYPE } from "../src/expr/index.js";

const env = new ExprEnvironment({
  state: {
    count: { type: "integer" },
    score: { type: "number" },
    ticket: { type: "string" },
    notes: { type: "array", items: { type: "string" } },
    sizes: { type: "array", items: { type: "integer" } },
    meta: {
      type: "object",
      properties: { n: { type: "integer" }, tags: { type: "array", items: { type: "string" } } },
    },
    extra: { type: "any" },
    messages: { type: "messages" },
  },
  context: { user_id: { type: "string" } },
});
const scope = env.scope("a test");
const run = (source: string, variables: Record<string, unknown>) =>
  env.compile(source, scope).evaluate(variables);
const render = (template: string, variables: Record<string, unknown>) =>
  env.compileTemplate(template, scope).evaluate(variables);

describe("integers at the boundary", () => {
  it("turns JS numbers in integer places into CEL ints and results back into numbers", () => {
    expect(run("state.count + 1", { state: { count: 41 } })).toBe(42);
    expect(run("state.sizes.map(s, s * 2)", { state: { sizes: [1, 2] } })).toEqual([2, 4]);
    expect(run("state.meta.n / 2", { state: { meta: { n: 7 } } })).toBe(3);
  });

  it("keeps numbers in number places as doubles", () => {
    expect(run("state.score / 2.0", { state: { score: 3 } })).toBe(1.5);
    expect(run("state.score + 0.5", { state: { score: 2.5 } })).toBe(3);
  });

  it("compares ints and doubles for equality, as CEL's heterogeneous equality does", () => {
    expect(run("state.score == 3", { state: { score: 3 } })).toBe(true);
    expect(run("state.score != 3", { state: { score: 3.5 } })).toBe(true);
    expect(run("state.count == 2.0", { state: { count: 2 } })).toBe(true);
    expect(run("2 == state.score", { state: { score: 2.5 } })).toBe(false);
    // Mixed arithmetic stays a type error, as in CEL.
    expect(() => env.compile("state.score + 1", scope)).toThrow(ExprError);
  });

  it("reads whole numbers in untyped places as ints, others as doubles", () => {
    expect(run("state.extra.count + 1", { state: { extra: { count: 2 } } })).toBe(3);
    expect(run("state.extra.ratio * 2.0", { state: { extra: { ratio: 0.25 } } })).toBe(0.5);
  });

  it("returns ints that do not fit a JSON number as an error, not a wrong number", () => {
    expect(() => run("9007199254740993", {})).toThrow(ExprEvalError);
  });
});

describe("results", () => {
  it("gives JSON-like values: lists, maps, strings", () => {
    expect(
      run('{"n": state.count, "tags": state.meta.tags}', {
        state: { count: 1, meta: { n: 0, tags: ["a"] } },
      }),
    ).toEqual({ n: 1, tags: ["a"] });
    expect(run("state.meta", { state: { meta: { n: 2, tags: [] } } })).toEqual({ n: 2, tags: [] });
    expect(run('b"hi"', {})).toBe("aGk=");
    expect(run('timestamp("2024-01-01T00:00:00Z")', {})).toBe("2024-01-01T00:00:00.000Z");
    expect(run('duration("90s")', {})).toBe("90s");
    expect(run("type(1)", {})).toBe("int");
  });

  it("reads messages in their expression view", () => {
    const messages = [{ type: "human", content: "hi", text: "hi" }];
    expect(run("state.messages[0].text", { state: { messages } })).toBe("hi");
    const withOutput = env.scope("a write", { output: MESSAGE_TYPE });
    expect(
      env
        .compile("output.type == 'ai'", withOutput)
        .evaluate({ output: { type: "ai", text: "x" } }),
    ).toBe(true);
  });
});

describe("templates", () => {
  it("gives a whole template the expression's typed value", () => {
    expect(render("${{ state.notes }}", { state: { notes: ["a", "b"] } })).toEqual(["a", "b"]);
    expect(render("${{ state.count }}", { state: { count: 3 } })).toBe(3);
  });

  it("interpolates values as text", () => {
    const state = { ticket: "T-1", count: 2, notes: ["a"], meta: { n: 1, tags: [] } };
    expect(
      render(
        "${{ state.ticket }} n=${{ state.count }} ok=${{ true }} notes=${{ state.notes }} meta=${{ state.meta }} none=${{ null }}",
        { state },
      ),
    ).toBe('T-1 n=2 ok=true notes=["a"] meta={"n":1,"tags":[]} none=');
  });

  it("returns literal text as it is, with $${{ unescaped", () => {
    expect(render("no expressions here", {})).toBe("no expressions here");
    expect(render("literal $${{ x }}", {})).toBe("literal ${{ x }}");
  });
});

describe("evaluation errors", () => {
  const caught = (fn: () => unknown): ExprEvalError => {
    try {
      fn();
    } catch (e) {
      expect(e).toBeInstanceOf(ExprEvalError);
      return e as ExprEvalError;
    }
    throw new Error("expected an ExprEvalError");
  };

  it("reports a missing key with its range in the expression", () => {
    const e = caught(() => run("state.ticket", { state: {} }));
    expect(e).toMatchObject({
      message: "no such key: ticket",
      source: "state.ticket",
      start: 6,
      end: 12,
    });
  });

  it("reports a failure inside a template at its place in the template", () => {
    const e = caught(() =>
      render("a ${{ 1 / (state.count - state.count) }}", { state: { count: 1 } }),
    );
    expect(e.message).toBe("division by zero");
    expect(e.source).toBe("a ${{ 1 / (state.count - state.count) }}");
    expect(e.start).toBeGreaterThanOrEqual(5);
  });

  it("refuses values that are not data", () => {
    caught(() => run("state.extra", { state: { extra: () => 1 } }));
    caught(() => run("state.extra.x", { state: { extra: new (class Thing {})() } }));
  });

  it("refuses values nested too deeply or referring to themselves", () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    caught(() => run("state.extra", { state: { extra: loop } }));
  });

  it("is always an ExprError, which callers can catch as one type", () => {
    const e = caught(() => run("state.count + 1", { state: { count: "x" } }));
    expect(e).toBeInstanceOf(ExprError);
    expect(e.cause).toBeDefined();
  });
});
