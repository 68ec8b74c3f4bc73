/** The form's logic for JSON Schemas (src/web/forms/schema-fields.ts): fields, defaults, coercion. */
import { describe, expect, it } from "vitest";
import {
  coerce,
  fieldsOf,
  fieldsValue,
  initialTexts,
  JSON_EDITOR,
  type JsonSchema,
  wholeValueOf,
} from "../../src/web/forms/schema-fields.js";

// The shape assistants.getSchemas gives for support-triage's state, plus a number and an object.
const schema: JsonSchema = {
  type: "object",
  properties: {
    ticket: { type: "string", description: "The ticket's id and title" },
    priority: { type: "string", enum: ["low", "normal", "urgent"], default: "normal" },
    attempts: { type: "integer", default: 0 },
    score: { type: "number" },
    approved: { type: "boolean" },
    notes: { type: "array", items: { type: "string" }, default: [] },
    messages: { type: "array", items: { type: "object" } },
    meta: { type: "object" },
    level: { enum: [1, 2, 3] },
  },
  required: ["ticket"],
};

describe("fieldsOf", () => {
  it("gives one field per property with the control its type needs", () => {
    expect(fieldsOf(schema).map((f) => [f.name, f.control, f.required])).toEqual([
      ["ticket", "text", true],
      ["priority", "select", false],
      ["attempts", "integer", false],
      ["score", "number", false],
      ["approved", "checkbox", false],
      ["notes", "json", false],
      ["messages", "json", false],
      ["meta", "json", false],
      ["level", "select", false],
    ]);
    expect(fieldsOf(schema)[0]!.description).toBe("The ticket's id and title");
  });

  it("gives one field named value for a schema that is not an object (an interrupt's boolean)", () => {
    expect(fieldsOf({ type: "boolean" }).map((f) => [f.name, f.control])).toEqual([
      ["value", "checkbox"],
    ]);
    expect(fieldsOf({ type: ["string", "null"] })[0]!.control).toBe("text");
    expect(fieldsOf({})[0]!.control).toBe("json");
  });
});

describe("initialTexts", () => {
  it("fills defaults, and empty texts elsewhere", () => {
    expect(initialTexts(schema)).toEqual({
      ticket: "",
      priority: "1",
      attempts: "0",
      score: "",
      approved: "false",
      notes: "[]",
      messages: "",
      meta: "",
      level: "",
    });
  });

  it("shows a given value over the defaults", () => {
    const t = initialTexts(schema, { ticket: "T-1", priority: "urgent", approved: true, level: 3 });
    expect([t.ticket, t.priority, t.approved, t.level]).toEqual(["T-1", "2", "true", "2"]);
  });
});

describe("coerce and fieldsValue", () => {
  const field = (name: string) => fieldsOf(schema).find((f) => f.name === name)!;

  it("gives each field the schema's type", () => {
    const texts = {
      ...initialTexts(schema),
      ticket: "T-1",
      score: " 2.5 ",
      approved: "true",
      messages: '[{"role":"user","content":"hi"}]',
      level: "1",
    };
    expect(fieldsValue(schema, texts)).toEqual({
      value: {
        ticket: "T-1",
        priority: "normal",
        attempts: 0,
        score: 2.5,
        approved: true,
        notes: [],
        messages: [{ role: "user", content: "hi" }],
        level: 2,
      },
      errors: {},
    });
  });

  it("leaves empty optional fields out, so the server applies the spec's defaults", () => {
    const { value } = fieldsValue(schema, { ...initialTexts(schema), ticket: "x", attempts: "" });
    expect(value).not.toHaveProperty("attempts");
    expect(value).not.toHaveProperty("score");
    expect(value).not.toHaveProperty("meta");
  });

  it("names the field of each bad text", () => {
    expect(coerce(field("ticket"), "")).toEqual({ ok: false, error: "ticket is required" });
    expect(coerce(field("attempts"), "1.5")).toEqual({
      ok: false,
      error: "attempts must be a whole number",
    });
    expect(coerce(field("score"), "abc")).toEqual({ ok: false, error: "score must be a number" });
    expect(coerce(field("notes"), '{"a":1}')).toEqual({
      ok: false,
      error: "notes must be a JSON array ([…])",
    });
    expect(coerce(field("meta"), "[1]")).toEqual({
      ok: false,
      error: "meta must be a JSON object ({…})",
    });
    const parse = coerce(field("meta"), "{oops");
    expect(parse.ok).toBe(false);
    expect(!parse.ok && parse.error).toMatch(/^meta is not valid JSON: /);
    expect(coerce(field("priority"), "7")).toEqual({
      ok: false,
      error: "priority: choose one of the options",
    });
  });

  it("keeps a text field's spaces: the text is the value", () => {
    expect(coerce(field("ticket"), "  T-1 ")).toEqual({ ok: true, value: "  T-1 " });
  });

  it("sends a non-object schema's value bare", () => {
    expect(fieldsValue({ type: "boolean" }, { value: "true" }).value).toBe(true);
    expect(fieldsValue({ type: "integer" }, { value: "3" }).value).toBe(3);
    expect(fieldsValue({ type: "string" }, { value: "" }).errors).toEqual({
      value: "value is required",
    });
  });
});

describe("wholeValueOf (the JSON editor)", () => {
  it("parses the whole value, and refuses a non-object for an object schema", () => {
    expect(wholeValueOf(schema, '{"ticket":"T-9"}')).toEqual({
      value: { ticket: "T-9" },
      errors: {},
    });
    expect(wholeValueOf(schema, "[]").errors[JSON_EDITOR]).toBe(
      "the value must be a JSON object ({…})",
    );
    expect(wholeValueOf(schema, "{").errors[JSON_EDITOR]).toMatch(/^not valid JSON: /);
    expect(wholeValueOf({ type: "boolean" }, "false").value).toBe(false);
  });
});
