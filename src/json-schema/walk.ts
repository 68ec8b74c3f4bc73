/** Walking a JSON Schema's subschemas, and JSON pointers into data. */

import { isObject } from "../spec/data.js";
import { pathOfPointer } from "../spec/source-map.js";

export type SchemaPath = (string | number)[];

const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
const SCHEMA_LISTS = ["prefixItems", "allOf", "anyOf", "oneOf"];
const SCHEMA_ONE = [
  "items",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "contentSchema",
];

export { isObject };

/** Visits every schema object in a schema (the schema itself first) with its path. */
export function walkSchemas(
  schema: unknown,
  visit: (s: Record<string, unknown>, path: SchemaPath) => void,
  path: SchemaPath = [],
): void {
  if (!isObject(schema)) return;
  visit(schema, path);
  for (const k of SCHEMA_MAPS) {
    const map = schema[k];
    if (isObject(map))
      for (const [name, sub] of Object.entries(map)) walkSchemas(sub, visit, [...path, k, name]);
  }
  for (const k of SCHEMA_LISTS) {
    const list = schema[k];
    if (!Array.isArray(list)) continue;
    for (const [i, sub] of list.entries()) walkSchemas(sub, visit, [...path, k, i]);
  }
  for (const k of SCHEMA_ONE) walkSchemas(schema[k], visit, [...path, k]);
}

export function findSchema(
  schema: unknown,
  test: (s: Record<string, unknown>) => boolean,
): SchemaPath | undefined {
  let found: SchemaPath | undefined;
  walkSchemas(schema, (s, path) => {
    if (!found && test(s)) found = path;
  });
  return found;
}

/** A JSON pointer as a path; segments inside arrays become numbers. */
export const decodePointer = (pointer: string, data: unknown): SchemaPath =>
  pathOfPointer(pointer, data);

export const valueAt = (data: unknown, path: SchemaPath): unknown =>
  path.reduce<unknown>((v, seg) => (v as Record<string, unknown> | undefined)?.[seg], data);

/** How messages name an expected JSON type. */
export const EXPECTED: Record<string, string> = {
  array: "a list",
  object: "a mapping",
  "object,boolean": "a schema (a mapping, or true or false)",
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "true or false",
  null: "null",
};
