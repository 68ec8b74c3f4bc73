/** The JSON Schema a declared state or context field stands for (check/ and compile/ both read it). */
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
