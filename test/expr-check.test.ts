/** Checking expressions against a spec's declared state and context, in scopes. */
import { describe, expect, it } from "vitest";
import {
  EXPR_LIMITS,
  ExprEnvironment,
  ExprSyntaxError,
  ExprTypeError,
  formatType,
  MESSAGE_TYPE,
  T,
  typeFromSchema,
} from "../src/expr/index.js";

const env = new ExprEnvironment({
  state: {
    messages: { type: "messages" },
    ticket: { type: "string" },
    priority: { type: "string", enum: ["low", "urgent"] },
    count: { type: "integer" },
    score: { type: "number" },
    notes: { type: "array", items: { type: "string" } },
    meta: { type: "object", properties: { priority: { type: "string" } } },
    extra: { type: "object" },
  },
  context: { user_id: { type: "string" } },
});
const stateScope = env.scope("a route's `when`");
const setScope = env.scope("the `values` of node `s`");

const typeOf = (source: string, scope = stateScope) => {
  const r = env.check(source, scope);
  if (!r.ok) throw new Error(r.problem.message);
  return formatType(r.type);
};
const problem = (source: string, scope = stateScope) => {
  const r = env.check(source, scope);
  if (r.ok) throw new Error(`expected a problem, got ${formatType(r.type)}`);
  return r.problem;
};

describe("types of expressions", () => {
  it("reads declared channels with their types", () => {
    expect(typeOf("state.ticket")).toBe("string");
    expect(typeOf("state.count + 1")).toBe("int");
    expect(typeOf("state.score > 1")).toBe("bool");
    expect(typeOf("state.notes")).toBe("list<string>");
    expect(typeOf("state.meta.priority")).toBe("string");
    expect(typeOf("state.extra.anything")).toBe("dyn");
    expect(typeOf("state.messages[0].text")).toBe("string");
    expect(typeOf("context.user_id")).toBe("string");
  });

  it("types mixed list and map literals as dyn instead of rejecting them", () => {
    expect(typeOf('{"q": "x", "n": 1}')).toBe("map<string, dyn>");
    expect(typeOf('[1, "a"]')).toBe("list<dyn>");
  });
});

describe("problems", () => {
  it("reports an undeclared state channel as an unknown key, at the name", () => {
    expect(problem("state.tikcet == 'x'")).toMatchObject({
      kind: "unknown-key",
      message: "`tikcet` is not a state channel",
      start: 6,
      end: 12,
      suggest: { word: "tikcet" },
    });
    expect(problem('state["tikcet"]')).toMatchObject({ kind: "unknown-key", start: 6, end: 14 });
    expect(problem("context.usr")).toMatchObject({
      kind: "unknown-key",
      message: "`usr` is not declared in `context`",
    });
  });

  it("reports an undeclared field of a record as a type error with its fields", () => {
    expect(problem("state.meta.prioirty")).toMatchObject({
      kind: "type",
      message: "`state.meta` has no field `prioirty`",
      hint: "its fields: `priority`",
      start: 11,
      end: 19,
    });
    expect(problem("state.messages[0].contnet").message).toBe(
      "`state.messages[0]` (a `Message`) has no field `contnet`",
    );
  });

  it("names what is in scope when a node-local variable is used out of place", () => {
    expect(problem("output.x", setScope)).toMatchObject({
      kind: "type",
      message:
        "`output` is not available in the `values` of node `s`: it exists in the `write` of `llm` and `agent` nodes and in the `output` of `subgraph` nodes",
      hint: "in scope here: `state` and `context`",
      start: 0,
      end: 6,
    });
  });

  it("keeps env to models, and state out of them (the run's context is in)", () => {
    expect(problem("env.HOME")).toMatchObject({ message: "`env` is only available in `models`" });
    const models = env.modelsScope();
    expect(env.check("env.OPENAI_URL", models)).toEqual({ ok: true, type: T.string });
    expect(problem("state.ticket", models)).toMatchObject({
      hint: "in scope here: `env` and `context`",
    });
  });

  it("explains operators that do not apply", () => {
    expect(problem("state.count + 1.5")).toMatchObject({
      message: "`+` cannot combine `int` and `double`",
      hint: expect.stringContaining("CEL does not mix number types"),
    });
    expect(problem("state.ticket + 1")).toMatchObject({
      hint: "convert the other side with `string(…)`",
    });
  });

  it("suggests the quoted text for a bare word", () => {
    expect(problem("state.priority == urgent")).toMatchObject({
      message: "unknown name `urgent`",
      start: 18,
      end: 24,
    });
  });

  it("points syntax errors at the offending column", () => {
    expect(problem('state.priority = "urgent"')).toMatchObject({
      kind: "syntax",
      message: "unexpected `=`",
      hint: "compare with `==`",
      start: 15,
      end: 16,
    });
    expect(problem("state.ticket &&")).toMatchObject({
      kind: "syntax",
      message: "the expression ends too early",
    });
    expect(problem("state.a and state.b")).toMatchObject({ hint: "CEL writes `&&` for and" });
    expect(problem("   ")).toMatchObject({ message: "the expression is empty" });
  });

  it("reports unknown functions", () => {
    expect(problem("len(state.notes)")).toMatchObject({
      message: "unknown function `len`",
      suggest: { word: "len" },
    });
  });

  it("bounds the size of an expression", () => {
    const long = `state.count${" + 1".repeat(EXPR_LIMITS.maxLength)}`;
    expect(problem(long)).toMatchObject({
      kind: "syntax",
      message: expect.stringContaining("characters long"),
    });
    const many = Array.from({ length: 1100 }, () => "1").join("+");
    expect(problem(many)).toMatchObject({
      kind: "syntax",
      message: expect.stringContaining("more than"),
    });
  });
});

describe("templates", () => {
  it("types a whole template as its expression and interpolation as a string", () => {
    expect(env.checkTemplate("${{ state.notes }}", stateScope).type).toEqual(T.list(T.string));
    expect(env.checkTemplate("n: ${{ state.count }}", stateScope).type).toEqual(T.string);
    expect(env.checkTemplate("plain", stateScope).type).toEqual(T.string);
  });

  it("reports every failing part with offsets in the template", () => {
    const r = env.checkTemplate("a ${{ state.x }} b ${{ }} c ${{ 1 + }}", stateScope);
    expect(r.type).toBeUndefined();
    expect(r.problems.map((p) => [p.kind, p.start, p.end])).toEqual([
      ["unknown-key", 12, 13],
      ["syntax", 19, 25],
      ["syntax", 36, 36],
    ]);
  });

  it("reports an unterminated ${{ as a syntax problem", () => {
    expect(env.checkTemplate("x ${{ state.ticket", stateScope).problems).toMatchObject([
      { kind: "syntax", start: 2, end: 5 },
    ]);
  });
});

describe("node-local scopes", () => {
  it("types `output` from the structured-output schema", () => {
    const output = typeFromSchema(
      { type: "object", properties: { priority: { type: "string" } } },
      "Output",
    );
    const scope = env.scope("the `write` of node `c`", { output });
    expect(typeOf("[output.priority]", scope)).toBe("list<string>");
    expect(problem("output.prio", scope)).toMatchObject({
      kind: "type",
      message: "`output` has no field `prio`",
    });
  });

  it("types `output` as a message without a schema", () => {
    const scope = env.scope("the `write` of node `c`", { output: MESSAGE_TYPE });
    expect(typeOf("output.text", scope)).toBe("string");
  });
});

describe("compile", () => {
  it("throws typed errors for bad expressions", () => {
    expect(() => env.compile("state.ticket +", stateScope)).toThrow(ExprSyntaxError);
    expect(() => env.compile("state.tikcet", stateScope)).toThrow(ExprTypeError);
    expect(() => env.compileTemplate("${{ output }}", setScope)).toThrow(ExprTypeError);
  });

  it("shares environments between specs with the same declarations", () => {
    const decl = { state: { a: { type: "string" } } };
    expect(ExprEnvironment.for(decl)).toBe(
      ExprEnvironment.for({ state: { a: { type: "string" } } }),
    );
    expect(ExprEnvironment.for(decl)).not.toBe(
      ExprEnvironment.for({ state: { b: { type: "string" } } }),
    );
  });
});
