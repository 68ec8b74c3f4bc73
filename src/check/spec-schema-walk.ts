/**
 * Walks the spec's own schema (schema/graph.schema.json) to the place a path points at: the keys
 * allowed there and its description, which the `schema` rule turns into did-you-mean and fix
 * hints. Not json-schema/, which works on the JSON Schemas a spec declares; kept out of rules/,
 * which holds one rule per file.
 */
import schemaJson from "../../schema/graph.schema.json" with { type: "json" };

type Schema = { [k: string]: any };
const root = schemaJson as Schema;

function deref(s: Schema | undefined): Schema | undefined {
  let cur = s;
  for (let i = 0; cur?.$ref && i < 16; i++) {
    const name = String(cur.$ref).replace("#/$defs/", "");
    cur = root.$defs[name];
  }
  return cur;
}

/** The object schemas that apply at a place: the schema itself, its `allOf` parts, and the `oneOf` branch the data selects by `kind`. */
function parts(schema: Schema | undefined, value: unknown): Schema[] {
  const s = deref(schema);
  if (!s) return [];
  const out: Schema[] = [s];
  for (const sub of s.allOf ?? []) out.push(...parts(sub, value));
  if (s.discriminator && s.oneOf && value && typeof value === "object") {
    const tag = (value as Record<string, unknown>)[s.discriminator.propertyName];
    const branch = (s.oneOf as Schema[]).find((b) => deref(b)?.properties?.kind?.const === tag);
    if (branch) out.push(...parts(branch, value));
  }
  return out;
}

/** The schema that governs the value at `path` in `data` (following properties, items and $refs). */
export function schemaAt(path: readonly (string | number)[], data: unknown): Schema | undefined {
  let schema: Schema | undefined = root;
  let value: unknown = data;
  for (const seg of path) {
    const ps = parts(schema, value);
    let next: Schema | undefined;
    for (const p of ps) {
      next = p.properties?.[seg] ?? next;
    }
    if (!next) {
      for (const p of ps) {
        if (typeof seg === "number" && p.items) next = p.items;
        else if (p.additionalProperties && typeof p.additionalProperties === "object")
          next = p.additionalProperties;
      }
    }
    if (!next) return undefined;
    schema = next;
    value =
      value && typeof value === "object"
        ? (value as Record<string, unknown>)[seg as string]
        : undefined;
  }
  return deref(schema);
}

/** The keys an object at `path` may have, or undefined when any key is allowed. */
export function allowedKeys(
  path: readonly (string | number)[],
  data: unknown,
): string[] | undefined {
  const schema = schemaAt(path, data);
  if (!schema) return undefined;
  let value: unknown = data;
  for (const seg of path) value = (value as Record<string, unknown> | undefined)?.[seg as string];
  const keys = new Set<string>();
  for (const p of parts(schema, value))
    for (const k of Object.keys(p.properties ?? {})) keys.add(k);
  return [...keys].sort();
}

/** The schema's description for the value at `path`, used as a fix hint. */
export function describe(path: readonly (string | number)[], data: unknown): string | undefined {
  return schemaAt(path, data)?.description;
}
