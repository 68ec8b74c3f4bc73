/**
 * The JSON Schemas of a graph's input, output, state and context, as its spec declares them: what
 * the server's `/assistants/{id}/schemas` answers and what `graphspec types` turns into TypeScript.
 */

import { isSecretKey } from "../spec/secrets.js";
import type { ContextField, GraphSpec, StateField } from "../spec/spec-types.generated.js";
import { fieldJsonSchema } from "./field-schema.js";

export interface GraphJsonSchemas {
  input: Record<string, unknown>;
  output: Record<string, unknown>;
  state: Record<string, unknown>;
  context: Record<string, unknown>;
}

const objectSchema = (
  title: string,
  fields: [string, StateField | ContextField][],
  required: string[] = [],
) => ({
  title,
  type: "object",
  properties: Object.fromEntries(fields.map(([k, f]) => [k, fieldSchema(f)])),
  ...(required.length ? { required } : {}),
});

/** A state or context field as JSON Schema; `messages` channels hold lists of messages. */
function fieldSchema(field: StateField | ContextField): Record<string, unknown> {
  const schema = fieldJsonSchema(field);
  if (field.type === "messages") return { ...schema, type: "array", items: { type: "object" } };
  return field.description ? { ...schema, description: field.description } : schema;
}

/** `input` and `output` name state channels (validate checks); both default to every channel. */
export function graphJsonSchemas(spec: GraphSpec): GraphJsonSchemas {
  const state = Object.entries(spec.state ?? {});
  const pick = (keys: string[] | undefined) =>
    keys ? state.filter(([k]) => keys.includes(k)) : state;
  const context = Object.entries(spec.context ?? {});
  const required = context.filter(([, f]) => f.required === true).map(([k]) => k);
  const contextSchema = objectSchema(`${spec.name} context`, context, required);
  // A secret (declared, or named like one) is `writeOnly`: sent with each run, never read back —
  // the thread does not keep it — so a form shows it as a password.
  for (const [k, f] of context)
    if (f.secret === true || isSecretKey(k))
      contextSchema.properties[k] = { ...contextSchema.properties[k], writeOnly: true };
  return {
    input: objectSchema(`${spec.name} input`, pick(spec.input)),
    output: objectSchema(`${spec.name} output`, pick(spec.output)),
    state: objectSchema(`${spec.name} state`, state),
    context: contextSchema,
  };
}
