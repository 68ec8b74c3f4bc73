import { fieldJsonSchema } from "../../json-schema/field-schema.js";
import { validatorFor, valueProblems } from "../../json-schema/value-problems.js";
import { isObject } from "../../spec/data.js";
import type { StateField } from "../../spec/spec-types.generated.js";
import type { CheckContext } from "../check-context.js";
import type { Rule } from "../rule.js";

/** A message as a spec can write one: a string, or a map with `role` (or `type`) and `content`. */
const isMessageLike = (v: unknown): boolean =>
  typeof v === "string" ||
  (isObject(v) &&
    !Array.isArray(v) &&
    "content" in v &&
    (typeof v.role === "string" || typeof v.type === "string"));

const MESSAGE_HINT =
  'write a list of messages, e.g. `default: [{ role: system, content: "You are terse." }]`, or `[]`';

function checkMessages(ctx: CheckContext, at: (string | number)[], value: unknown): void {
  if (!Array.isArray(value)) {
    ctx.report("default-type", at, {
      message: `the default of a \`messages\` channel must be a list of messages, not ${JSON.stringify(value)}`,
      hint: MESSAGE_HINT,
      at: "value",
    });
    return;
  }
  value.forEach((item, i) => {
    if (isMessageLike(item)) return;
    ctx.report("default-type", [...at, i], {
      message: `a message must be a string or a map with \`role\` and \`content\`, not ${JSON.stringify(item)}`,
      hint: MESSAGE_HINT,
      at: "value",
    });
  });
}

function checkFields(ctx: CheckContext, section: "state" | "context"): void {
  const fields = ctx.spec[section];
  if (!isObject(fields)) return;
  for (const [name, field] of Object.entries(fields)) {
    if (!isObject(field) || !Object.hasOwn(field, "default")) continue;
    const at = [section, name, "default"];
    const value = field.default;
    if (field.type === "messages" || field.reducer === "messages") {
      checkMessages(ctx, at, value);
      continue;
    }
    // A field whose own schema is broken is reported by `schema`; nothing to check against.
    const validate = validatorFor(fieldJsonSchema(field as StateField));
    if (!validate) continue;
    const subject = (path: (string | number)[]) =>
      `the default of \`${section}.${name}\`${path.length ? ` at \`${path.join(".")}\`` : ""}`;
    for (const p of valueProblems(validate, value, subject)) {
      ctx.report("default-type", [...at, ...p.path], {
        message: p.message,
        hint:
          p.hint ??
          `give a default the channel's declaration allows, or change the declaration (${describeDeclared(field)})`,
        replacement: p.replacement,
        at: "value",
      });
    }
  }
}

/** The declaration's type and enum, as the hint shows them. */
function describeDeclared(field: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof field.type === "string") parts.push(`type: ${field.type}`);
  if (Array.isArray(field.enum)) parts.push(`enum: [${field.enum.map(String).join(", ")}]`);
  return parts.length ? parts.join(", ") : "its schema";
}

/** A state or context field's `default` is a value of the field's own declaration. */
export const defaultType: Rule = {
  name: "default-type",
  check(ctx) {
    checkFields(ctx, "state");
    checkFields(ctx, "context");
  },
};
