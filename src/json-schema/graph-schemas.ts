/**
 * The JSON Schemas of a graph's input, output, state and context, as its spec declares them: what
 * the server's `/assistants/{id}/schemas` answers and what `graphspec types` turns into TypeScript.
 */
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
  return {
    input: objectSchema(`${spec.name} input`, pick(spec.input)),
    output: objectSchema(`${spec.name} output`, pick(spec.output)),
    state: objectSchema(`${spec.name} state`, state),
    context: objectSchema(`${spec.name} context`, context, required),
  };
}
