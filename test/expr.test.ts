/** The expression stage's building blocks: templates, the type mapping, assignability. */
import { describe, expect, it } from "vitest";
import {
  ExprSyntaxError,
  formatType,
  isAssignable,
  MESSAGE_TYPE,
  parseCelType,
  parseTemplate,
  renderText,
  T,
  typeFromSchema,
  writeType,
} from "../src/expr/index.js";

describe("parseTemplate", () => {
  it("keeps a string without ${{ as one text part", () => {
    const t = parseTemplate("plain text }} here");
    expect(t.whole).toBe(false);
    expect(t.parts).toEqual([{ kind: "text", text: "plain text }} here", start: 0, end: 18 }]);
  });

  it("recognises a whole-value template, with its source offsets", () => {
    const t = parseTemplate("${{ state.x }}");
    expect(t.whole).toBe(true);
    expect(t.parts).toEqual([
      { kind: "expr", source: " state.x ", start: 3, end: 12, open: 0, close: 14 },
    ]);
  });

  it("is not whole when there is text around the expression, even whitespace", () => {
    expect(parseTemplate(" ${{ a }}").whole).toBe(false);
    expect(parseTemplate("${{ a }}${{ b }}").whole).toBe(false);
  });

  it("splits interpolated text", () => {
    const t = parseTemplate("Ticket ${{ state.t }}: ${{ state.p }}!");
    expect(t.parts.map((p) => (p.kind === "text" ? p.text : `<${p.source.trim()}>`))).toEqual([
      "Ticket ",
      "<state.t>",
      ": ",
      "<state.p>",
      "!",
    ]);
  });

  it("reads $${{ as a literal ${{", () => {
    const t = parseTemplate("cost: $${{ not.an.expr }} and ${{ x }}");
    expect(t.parts[0]).toEqual({
      kind: "text",
      text: "cost: ${{ not.an.expr }} and ",
      start: 0,
      end: 30,
    });
    expect(t.parts[1]).toMatchObject({ kind: "expr", source: " x " });
  });

  it("finds the closing }} outside strings and the expression's own braces", () => {
    expect(parseTemplate('${{ {"a": {"b": 1}} }}').parts[0]).toMatchObject({
      source: ' {"a": {"b": 1}} ',
    });
    expect(parseTemplate("${{ \"}}\" + '}}' }}").parts[0]).toMatchObject({
      source: " \"}}\" + '}}' ",
    });
    expect(parseTemplate('${{ r"\\" }} x').parts[0]).toMatchObject({ source: ' r"\\" ' });
  });

  it("closes at the first }} when a string literal is unterminated, leaving the error to CEL", () => {
    const t = parseTemplate('${{ "abc }} tail');
    expect(t.parts[0]).toMatchObject({ kind: "expr", source: ' "abc ' });
  });

  it("rejects an unterminated ${{ at its position", () => {
    let error: unknown;
    try {
      parseTemplate("ok ${{ state.x");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ExprSyntaxError);
    expect(error).toMatchObject({ start: 3, end: 6, message: "`${{` is not closed" });
  });
});

describe("renderText", () => {
  it("renders values as text for interpolation", () => {
    expect(renderText("a")).toBe("a");
    expect(renderText(3)).toBe("3");
    expect(renderText(2.5)).toBe("2.5");
    expect(renderText(true)).toBe("true");
    expect(renderText(null)).toBe("");
    expect(renderText(["a", 1])).toBe('["a",1]');
    expect(renderText({ a: "b" })).toBe('{"a":"b"}');
  });
});

describe("typeFromSchema", () => {
  const f = (schema: unknown) => formatType(typeFromSchema(schema, "X"));

  it("maps scalar types", () => {
    expect(f({ type: "string" })).toBe("string");
    expect(f({ type: "number" })).toBe("double");
    expect(f({ type: "integer" })).toBe("int");
    expect(f({ type: "boolean" })).toBe("bool");
    expect(f({ type: "any" })).toBe("dyn");
    expect(f(true)).toBe("dyn");
    expect(f({})).toBe("dyn");
  });

  it("maps enums of strings to string, keeping the values", () => {
    expect(typeFromSchema({ type: "string", enum: ["a", "b"] }, "X")).toEqual(
      T.stringEnum(["a", "b"]),
    );
    expect(typeFromSchema({ enum: ["a", "b"] }, "X")).toEqual(T.stringEnum(["a", "b"]));
    expect(f({ enum: [1, 2] })).toBe("int");
  });

  it("maps arrays, messages and nullable types", () => {
    expect(f({ type: "array", items: { type: "string" } })).toBe("list<string>");
    expect(f({ type: "array" })).toBe("list<dyn>");
    expect(typeFromSchema({ type: "messages" }, "X")).toEqual(T.list(MESSAGE_TYPE));
    expect(f({ type: ["integer", "null"] })).toBe("int");
    expect(f({ type: ["integer", "string"] })).toBe("dyn");
  });

  it("makes a closed record of declared properties, an open map otherwise", () => {
    const closed = typeFromSchema(
      { type: "object", properties: { p: { type: "string" }, n: { type: "integer" } } },
      "X",
    );
    expect(closed).toMatchObject({ kind: "record", name: "X", fields: { p: T.string, n: T.int } });
    expect(
      f({ type: "object", properties: { p: { type: "string" } }, additionalProperties: true }),
    ).toBe("map<string, dyn>");
    expect(f({ type: "object" })).toBe("map<string, dyn>");
    expect(f({ type: "object", additionalProperties: { type: "integer" } })).toBe(
      "map<string, int>",
    );
  });

  it("follows local $refs and stops at cycles", () => {
    const schema = {
      $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } } },
      $ref: "#/$defs/node",
    };
    expect(f(schema)).toBe("{next: dyn}");
    expect(f({ $ref: "#/$defs/missing" })).toBe("dyn");
  });
});

describe("parseCelType", () => {
  const rec = T.record("State.meta", { p: T.string });
  const records = new Map([["State.meta", rec]]);
  it("reads cel-js type names back", () => {
    expect(parseCelType("list<State.meta>", records)).toEqual(T.list(rec));
    expect(parseCelType("map<string, list<int>>", records)).toEqual(T.map(T.list(T.int)));
    expect(parseCelType("list<T>", records)).toEqual(T.list(T.dyn));
    expect(parseCelType("list", records)).toEqual(T.list(T.dyn));
    expect(parseCelType("google.protobuf.Timestamp", records)).toEqual(T.timestamp);
    expect(parseCelType("optional<int>", records)).toEqual({
      kind: "opaque",
      name: "optional<int>",
    });
  });
});

describe("isAssignable", () => {
  it("accepts an int where a double is expected, not the reverse", () => {
    expect(isAssignable(T.int, T.double)).toBe(true);
    expect(isAssignable(T.double, T.int)).toBe(false);
  });

  it("treats dyn as fitting anywhere", () => {
    expect(isAssignable(T.dyn, T.string)).toBe(true);
    expect(isAssignable(T.list(T.int), T.dyn)).toBe(true);
  });

  it("accepts null only where nullable", () => {
    expect(isAssignable(T.null, T.string)).toBe(false);
    expect(isAssignable(T.null, T.string, { nullable: true })).toBe(true);
  });

  it("compares records by fields: fewer fit, unknown ones do not", () => {
    const wide = T.record("A", { a: T.string, b: T.int });
    expect(isAssignable(T.record("B", { a: T.string }), wide)).toBe(true);
    expect(isAssignable(T.record("C", { c: T.string }), wide)).toBe(false);
    expect(isAssignable(T.record("D", { a: T.int }), wide)).toBe(false);
  });

  it("accepts a map into a record when its values fit a field", () => {
    const rec = T.record("A", { a: T.string, b: T.int });
    expect(isAssignable(T.map(T.string), rec)).toBe(true);
    expect(isAssignable(T.map(T.bool), rec)).toBe(false);
  });
});

describe("writeType", () => {
  const notes = typeFromSchema({ type: "array", items: { type: "string" } }, "S");
  it("lets append and union take a list or one item", () => {
    const t = writeType(notes, { type: "array", reducer: "append" });
    expect(formatType(t)).toBe("list<string> or string");
    expect(isAssignable(T.string, t)).toBe(true);
    expect(isAssignable(T.list(T.string), t)).toBe(true);
    expect(isAssignable(T.int, t)).toBe(false);
  });

  it("takes the channel's own type for replace, sum and merge", () => {
    expect(writeType(T.int, { type: "integer", reducer: "sum" })).toBe(T.int);
    expect(writeType(notes, { type: "array" })).toBe(notes);
  });

  it("takes messages and message-likes for a messages channel", () => {
    const t = writeType(T.list(MESSAGE_TYPE), { type: "messages" });
    expect(isAssignable(MESSAGE_TYPE, t)).toBe(true);
    expect(isAssignable(T.list(MESSAGE_TYPE), t)).toBe(true);
    expect(isAssignable(T.string, t)).toBe(true);
    expect(isAssignable(T.int, t)).toBe(false);
  });

  it("takes anything for a reducer of the user's", () => {
    expect(writeType(T.int, { type: "integer", reducer: { module: "./r.ts" } })).toBe(T.dyn);
  });
});
