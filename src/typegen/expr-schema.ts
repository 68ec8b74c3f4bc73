/**
 * The JSON Schema of what an expression's type says a value is, for values the run shows (an
 * interrupt's evaluated payload). What the checker does not know (`dyn`, timestamps, …) is `{}`:
 * any value, `unknown` in TypeScript.
 */
import type { ExprType } from "../expr/types.js";

export function exprTypeSchema(type: ExprType): Record<string, unknown> {
  switch (type.kind) {
    case "null":
      return { type: "null" };
    case "bool":
      return { type: "boolean" };
    case "int":
    case "uint":
    case "double":
      return { type: "number" };
    case "string":
      return type.enum ? { type: "string", enum: [...type.enum] } : { type: "string" };
    case "list":
      return { type: "array", items: exprTypeSchema(type.item) };
    case "map":
      return { type: "object", additionalProperties: exprTypeSchema(type.value) };
    case "record":
      // A channel without a default may be absent: no field of a record is promised.
      return {
        type: "object",
        properties: Object.fromEntries(
          Object.entries(type.fields).map(([k, t]) => [k, exprTypeSchema(t)]),
        ),
        additionalProperties: false,
      };
    case "union":
      return { anyOf: type.of.map(exprTypeSchema) };
    default:
      return {};
  }
}
