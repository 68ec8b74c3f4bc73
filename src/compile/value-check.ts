/**
 * JSON Schema validation of run-time values (writes, inputs, context, resume values, structured
 * outputs), with messages in the validator's words: which value, what it must be, a hint.
 */
import { compile } from "../json-schema/ajv.js";
import { valueProblems } from "../json-schema/value-problems.js";
import type { ContextField, StateField } from "../spec/spec-types.generated.js";

/** Keys of a state or context field that are graphspec's, not JSON Schema's. */
const NOT_SCHEMA = new Set(["reducer", "default", "description", "secret"]);

/** The JSON Schema a declared field's values must satisfy (`any` and `messages` allow anything). */
export function fieldJsonSchema(field: StateField | ContextField): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(field)) {
    if (NOT_SCHEMA.has(key)) continue;
    // A context field's `required: true` is graphspec's (the run must give it), not JSON Schema's.
    if (key === "required" && !Array.isArray(value)) continue;
    if (key === "type" && (value === "any" || value === "messages")) continue;
    out[key] = value;
  }
  return out;
}

/** A check of values against one schema: the problems, as sentences about `subject`. */
export type ValueCheck = (value: unknown, subject: string) => { message: string; hint?: string }[];

export function valueCheck(schema: object | boolean): ValueCheck {
  const validate = compile(schema);
  return (value, subject) => {
    if (validate(value)) return [];
    return valueProblems(validate, value, (path) =>
      path.length ? `\`${subject}.${path.join(".")}\`` : `\`${subject}\``,
    ).map((p) => (p.hint ? { message: p.message, hint: p.hint } : { message: p.message }));
  };
}
