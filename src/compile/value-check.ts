/**
 * JSON Schema validation of run-time values (writes, inputs, context, resume values, structured
 * outputs), with messages in the validator's words: which value, what it must be, a hint.
 */
import { compile } from "../json-schema/ajv.js";
import { fieldJsonSchema } from "../json-schema/field-schema.js";
import { valueProblems } from "../json-schema/value-problems.js";

export { fieldJsonSchema };

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
