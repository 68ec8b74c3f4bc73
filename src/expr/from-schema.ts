/** Expression types from JSON Schemas and spec field declarations, so expressions are checked against what the spec declares. */
import { EXPR_LIMITS } from "./limits.js";
import { type ExprType, MESSAGE_TYPE, type RecordType, T } from "./types.js";

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The expression type of values that match a JSON Schema (output.schema, an interrupt's
 * `schema`, a tool's argument schema) or a state/context field (which is a JSON Schema with
 * `type: messages` and `type: any` added). `name` names the records made for objects.
 *
 * - string (also `enum`/`const` of strings) → string; number → double; integer → int;
 *   boolean → bool; null → null; array → list<items>; messages → list<Message>; any → dyn
 * - object with `properties` → a closed record, unless `additionalProperties` is truthy;
 *   other objects → map<string, additionalProperties' type or dyn>
 * - `type: [T, "null"]` → T; `anyOf`/`oneOf` whose branches agree → that type
 * - local `$ref`s (`#/$defs/X`) are followed; cycles and deep nesting become dyn.
 */
export function typeFromSchema(schema: unknown, name: string, root: unknown = schema): ExprType {
  return convert(schema, name, root, 0, new Set());
}

function convert(
  schema: unknown,
  name: string,
  root: unknown,
  depth: number,
  refs: Set<string>,
): ExprType {
  if (!isObject(schema) || depth > EXPR_LIMITS.maxSchemaDepth) return T.dyn;
  const next = (s: unknown, n: string) => convert(s, n, root, depth + 1, refs);

  if (typeof schema.$ref === "string") {
    const target = resolveRef(root, schema.$ref);
    if (target === undefined || refs.has(schema.$ref)) return T.dyn;
    refs.add(schema.$ref);
    const t = convert(target, name, root, depth + 1, refs);
    refs.delete(schema.$ref);
    return t;
  }

  let type = schema.type;
  if (Array.isArray(type)) {
    const nonNull = type.filter((t) => t !== "null");
    type = nonNull.length === 1 ? nonNull[0] : undefined;
    if (type === undefined) return T.dyn;
  }
  if (type === undefined) type = impliedType(schema);

  switch (type) {
    case "string":
      return stringType(schema);
    case "number":
      return T.double;
    case "integer":
      return T.int;
    case "boolean":
      return T.bool;
    case "null":
      return T.null;
    case "messages":
      return T.list(MESSAGE_TYPE);
    case "array":
      return T.list(schema.items === undefined ? T.dyn : next(schema.items, `${name}[]`));
    case "object":
      return objectType(schema, name, next);
    default: {
      const branches = Array.isArray(schema.anyOf)
        ? schema.anyOf
        : Array.isArray(schema.oneOf)
          ? schema.oneOf
          : undefined;
      if (branches?.length) return agreeing(branches.map((b, i) => next(b, `${name}#${i}`)));
      return T.dyn;
    }
  }
}

/** The type a schema without `type` implies by its other keywords. */
function impliedType(schema: Schema): unknown {
  if (isObject(schema.properties)) return "object";
  if (schema.items !== undefined) return "array";
  const values = Array.isArray(schema.enum)
    ? schema.enum
    : "const" in schema
      ? [schema.const]
      : undefined;
  if (!values?.length) return undefined;
  if (values.every((v) => typeof v === "string")) return "string";
  if (values.every((v) => typeof v === "number" && Number.isInteger(v))) return "integer";
  if (values.every((v) => typeof v === "number")) return "number";
  if (values.every((v) => typeof v === "boolean")) return "boolean";
  return undefined;
}

function stringType(schema: Schema): ExprType {
  const values = Array.isArray(schema.enum)
    ? schema.enum
    : typeof schema.const === "string"
      ? [schema.const]
      : undefined;
  return values?.length && values.every((v) => typeof v === "string")
    ? T.stringEnum(values as string[])
    : T.string;
}

function objectType(
  schema: Schema,
  name: string,
  next: (s: unknown, n: string) => ExprType,
): ExprType {
  const extra = schema.additionalProperties;
  if (isObject(schema.properties) && !extra) {
    const fields: Record<string, ExprType> = {};
    for (const [key, sub] of Object.entries(schema.properties)) {
      fields[key] = next(sub, `${name}.${key}`);
    }
    return T.record(name, fields);
  }
  // Open objects: known properties are not typed individually, every read is dyn.
  return T.map(isObject(extra) && !isObject(schema.properties) ? next(extra, `${name}[]`) : T.dyn);
}

/** The one type all branches share, else dyn. */
function agreeing(types: ExprType[]): ExprType {
  const first = types[0]!;
  const same = types.every(
    (t) => t.kind === first.kind && t.kind !== "record" && t.kind !== "list" && t.kind !== "map",
  );
  return same ? (first.kind === "string" ? T.string : first) : T.dyn;
}

function resolveRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let cur: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const seg = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isObject(cur) || !Object.hasOwn(cur, seg)) return undefined;
    cur = cur[seg];
  }
  return cur;
}

/** A closed record of declared fields: the `state` or `context` variable. */
export function recordOfFields(name: string, fields: unknown): RecordType {
  const out: Record<string, ExprType> = {};
  if (isObject(fields)) {
    for (const [key, field] of Object.entries(fields))
      out[key] = typeFromSchema(field, `${name}.${key}`);
  }
  return T.record(name, out);
}
