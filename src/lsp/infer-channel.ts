/**
 * The declaration a quick fix gives a channel the spec uses but does not declare, its type read
 * from what writes it: a literal's JSON type, a template that copies a declared channel, a
 * template with text around its expressions (a string), an llm or agent's answer (a string, or an
 * object with `output.schema`). Anything else — a read, a function's `writes` — gets `any`.
 */
import { isObject } from "../spec/data.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";

type Field = Record<string, unknown>;

const BARE_STATE_READ = /^\$\{\{\s*state\.([A-Za-z_]\w*)\s*\}\}$/;
const TEMPLATE = /\$\{\{[\s\S]*?\}\}/g;

function ofValue(value: unknown, state: Record<string, unknown>): Field | undefined {
  if (typeof value === "string") {
    if (!value.includes("${{")) return { type: "string" };
    const read = BARE_STATE_READ.exec(value)?.[1];
    if (read && isObject(state[read])) {
      const { type, items } = state[read] as Field;
      return items === undefined ? { type } : { type, items };
    }
    // Text around the expressions: the template renders to a string.
    return value.replace(TEMPLATE, "").trim() ? { type: "string" } : undefined;
  }
  if (typeof value === "boolean") return { type: "boolean" };
  if (typeof value === "number") return { type: Number.isInteger(value) ? "integer" : "number" };
  if (Array.isArray(value)) return { type: "array" };
  if (isObject(value)) return { type: "object" };
  return undefined;
}

/** What writes `name` first, as a state field declaration. */
export function inferChannel(spec: GraphSpec, name: string): Field {
  if (name === "messages") return { type: "messages" };
  const state = isObject(spec.state) ? spec.state : {};
  for (const node of Object.values(isObject(spec.nodes) ? spec.nodes : {})) {
    if (!isObject(node)) continue;
    const write = node.write;
    if (write === name) {
      if (node.kind === "llm" || node.kind === "agent")
        return { type: isObject(node.output) && node.output.schema ? "object" : "string" };
      return { type: "any" };
    }
    for (const values of [write, node.kind === "set" ? node.values : undefined]) {
      if (isObject(values) && Object.hasOwn(values, name)) {
        const field = ofValue(values[name], state);
        if (field) return field;
      }
    }
  }
  for (const edge of Array.isArray(spec.edges) ? spec.edges : []) {
    const withValues = isObject(edge) && isObject(edge.map) ? edge.map.with : undefined;
    if (isObject(withValues) && Object.hasOwn(withValues, name)) {
      const field = ofValue(withValues[name], state);
      if (field) return field;
    }
  }
  return { type: "any" };
}

/** A declaration as YAML flow text and as JSON: `{ type: string }`. */
export function fieldText(field: Field): { yaml: string; json: string } {
  const yaml = Object.entries(field)
    .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(", ");
  const json = Object.entries(field)
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(", ");
  return { yaml: `{ ${yaml} }`, json: `{ ${json} }` };
}
