/**
 * What a form shows for a JSON Schema, and the values it sends: one field per property of an
 * object schema (or one field for a schema that is not an object, such as an interrupt's
 * `{ type: boolean }`), each with the control its type needs, and the text a person typed coerced
 * back to the schema's type. Pure functions, so they are tested without a browser.
 *
 * The schemas are the ones graphspec gives (`assistants.getSchemas`: flat objects of state or
 * context fields; an interrupt's `response_schema`): nested objects and arrays are edited as JSON.
 */

export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  default?: unknown;
  description?: string;
  title?: string;
  [key: string]: unknown;
};

export type Control = "text" | "number" | "integer" | "checkbox" | "select" | "json";

export interface Field {
  /** The property name (the key of the value); `value` for a schema that is not an object. */
  name: string;
  control: Control;
  required: boolean;
  description: string | undefined;
  /** The choices of a `select`. */
  options: unknown[];
  schema: JsonSchema;
}

/** The value's key when the schema is not an object: the form has one field, and sends it bare. */
export const WHOLE = "value";

const typeOf = (s: JsonSchema): string | undefined => {
  const t = Array.isArray(s.type) ? s.type.find((x) => x !== "null") : s.type;
  if (t) return t;
  if (s.properties) return "object";
  if (s.items) return "array";
  return undefined;
};

export function controlOf(schema: JsonSchema): Control {
  if (Array.isArray(schema.enum) && schema.enum.length) return "select";
  switch (typeOf(schema)) {
    case "string":
      return "text";
    case "number":
      return "number";
    case "integer":
      return "integer";
    case "boolean":
      return "checkbox";
    default:
      // arrays (message lists included), objects, and schemas that name no type: JSON.
      return "json";
  }
}

/** Whether the form for `schema` is one field per property (an object schema with properties). */
export const isObjectForm = (schema: JsonSchema): boolean =>
  typeOf(schema) === "object" && schema.properties !== undefined;

export function fieldsOf(schema: JsonSchema): Field[] {
  if (!isObjectForm(schema)) {
    return [
      {
        name: WHOLE,
        control: controlOf(schema),
        required: true,
        description: schema.description,
        options: schema.enum ?? [],
        schema,
      },
    ];
  }
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({
    name,
    control: controlOf(s),
    required: required.has(name),
    description: s.description,
    options: s.enum ?? [],
    schema: s,
  }));
}

/**
 * What a control holds, as text (a checkbox: "true"/"false"), for a value. A select holds the
 * index of its option, so enums of numbers or mixed types go back as they were.
 */
export function textOf(field: Field, value: unknown): string {
  if (value === undefined) {
    if (field.control === "checkbox") return "false";
    return "";
  }
  switch (field.control) {
    case "checkbox":
      return value === true ? "true" : "false";
    case "select": {
      const i = field.options.findIndex((o) => JSON.stringify(o) === JSON.stringify(value));
      return i < 0 ? "" : String(i);
    }
    case "json":
      return JSON.stringify(value, null, 2);
    default:
      return typeof value === "string" ? value : String(value);
  }
}

/** The texts a form starts with: each field's `default`, else empty. */
export function initialTexts(schema: JsonSchema, value?: unknown): Record<string, string> {
  const fields = fieldsOf(schema);
  const given = (name: string) =>
    isObjectForm(schema)
      ? (value as Record<string, unknown> | undefined)?.[name]
      : name === WHOLE
        ? value
        : undefined;
  return Object.fromEntries(
    fields.map((f) => [f.name, textOf(f, given(f.name) ?? f.schema.default)]),
  );
}

export type Coerced = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * A control's text as the schema's type. An empty optional field is left out (`undefined`): the
 * server then applies the spec's default. An empty required one is an error.
 */
export function coerce(field: Field, text: string): Coerced {
  const empty = text.trim() === "";
  if (field.control === "checkbox") return { ok: true, value: text === "true" };
  if (empty && field.control !== "text") {
    return field.required
      ? { ok: false, error: `${field.name} is required` }
      : { ok: true, value: undefined };
  }
  switch (field.control) {
    case "text":
      if (text === "" && !field.required) return { ok: true, value: undefined };
      if (text === "") return { ok: false, error: `${field.name} is required` };
      return { ok: true, value: text };
    case "number":
    case "integer": {
      const n = Number(text.trim());
      if (!Number.isFinite(n)) return { ok: false, error: `${field.name} must be a number` };
      if (field.control === "integer" && !Number.isInteger(n))
        return { ok: false, error: `${field.name} must be a whole number` };
      return { ok: true, value: n };
    }
    case "select": {
      const i = Number(text);
      if (!Number.isInteger(i) || i < 0 || i >= field.options.length)
        return { ok: false, error: `${field.name}: choose one of the options` };
      return { ok: true, value: field.options[i] };
    }
    case "json": {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        return { ok: false, error: `${field.name} is not valid JSON: ${(e as Error).message}` };
      }
      const want = typeOf(field.schema);
      if (want === "array" && !Array.isArray(value))
        return { ok: false, error: `${field.name} must be a JSON array ([…])` };
      if (
        want === "object" &&
        (typeof value !== "object" || value === null || Array.isArray(value))
      )
        return { ok: false, error: `${field.name} must be a JSON object ({…})` };
      return { ok: true, value };
    }
  }
}

export interface FormValue {
  /** The value to send, when every field coerced. */
  value: unknown;
  /** Each field's problem, by field name; empty when the value can be sent. */
  errors: Record<string, string>;
}

/** The whole form's value: an object of its properties, or the bare value of a non-object schema. */
export function fieldsValue(schema: JsonSchema, texts: Record<string, string>): FormValue {
  const errors: Record<string, string> = {};
  const out: Record<string, unknown> = {};
  for (const f of fieldsOf(schema)) {
    const c = coerce(f, texts[f.name] ?? "");
    if (!c.ok) errors[f.name] = c.error;
    else if (c.value !== undefined) out[f.name] = c.value;
  }
  return { value: isObjectForm(schema) ? out : out[WHOLE], errors };
}

/** The key of `FormValue.errors` for the whole-value JSON editor. */
export const JSON_EDITOR = "(json)";

/** The value typed in the whole-value JSON editor, checked against the schema's top type. */
export function wholeValueOf(schema: JsonSchema, text: string): FormValue {
  try {
    const value = JSON.parse(text);
    if (
      isObjectForm(schema) &&
      (typeof value !== "object" || value === null || Array.isArray(value))
    )
      return {
        value: undefined,
        errors: { [JSON_EDITOR]: "the value must be a JSON object ({…})" },
      };
    return { value, errors: {} };
  } catch (e) {
    return {
      value: undefined,
      errors: { [JSON_EDITOR]: `not valid JSON: ${(e as Error).message}` },
    };
  }
}
