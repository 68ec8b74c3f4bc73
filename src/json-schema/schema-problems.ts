/**
 * Why a JSON Schema a user wrote (an interrupt's `schema`, a structured `output.schema`) is not
 * usable, with the place inside the schema, so that diagnostics point at it exactly.
 */
import type { ErrorObject } from "ajv";
import { closest, listNames, suggest, withSuggestion } from "../diagnostics/suggest.js";
import { RegexError, regexProblem } from "../spec/linear-regex.js";
import { compile, DRAFT_2020_12, FORMATS, metaSchemaErrors, schemaAjv } from "./ajv.js";
import {
  decodePointer,
  EXPECTED,
  findSchema,
  isObject,
  type SchemaPath,
  valueAt,
  walkSchemas,
} from "./walk.js";

export interface SchemaProblem {
  /** The place inside the schema (or the validated value). */
  path: SchemaPath;
  at: "key" | "value";
  message: string;
  hint?: string | undefined;
  /** The name a did-you-mean hint suggests, in place of what stands at the problem's place. */
  replacement?: string | undefined;
}

/** One message per place: the meta-schema's alternatives (`anyOf`) produce several errors for one mistake. */
function metaProblems(schema: unknown, errors: readonly ErrorObject[]): SchemaProblem[] {
  const byPlace = new Map<string, ErrorObject[]>();
  for (const e of errors) byPlace.set(e.instancePath, [...(byPlace.get(e.instancePath) ?? []), e]);
  const out: SchemaProblem[] = [];
  for (const [pointer, group] of byPlace) {
    const path = decodePointer(pointer, schema);
    const key = String(path.at(-1) ?? "schema");
    const value = valueAt(schema, path);
    const enumError = group.find((e) => e.keyword === "enum");
    if (enumError) {
      const allowed = (enumError.params.allowedValues as unknown[]).map(String);
      out.push({
        path,
        at: "value",
        message:
          key === "type"
            ? `${JSON.stringify(value)} is not a JSON Schema type`
            : `${JSON.stringify(value)} is not a valid \`${key}\``,
        ...withSuggestion(
          typeof value === "string" ? suggest(value, allowed) : undefined,
          `use ${listNames(allowed, 10)}`,
        ),
      });
      continue;
    }
    const e = group.find((g) => g.keyword !== "anyOf" && g.keyword !== "oneOf") ?? group[0]!;
    if (e.keyword === "type") {
      const expected = String(e.params.type);
      const isItemList = key === "items" && Array.isArray(value);
      out.push({
        path,
        at: "value",
        message: `\`${key}\` must be ${EXPECTED[expected] ?? expected}`,
        hint: isItemList
          ? "in draft 2020-12 a list of per-position schemas is `prefixItems`; `items` is one schema for every item"
          : undefined,
      });
      continue;
    }
    out.push({ path, at: "value", message: `\`${key}\` ${e.message ?? "is invalid"}` });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Compile errors (strict mode): Ajv throws one error, without a path; find the place it means.

function compileProblem(schema: unknown, error: unknown): SchemaProblem {
  const message = String((error as { message?: unknown })?.message ?? error);
  const unknownKeyword = /^strict mode: unknown keyword: "(.+)"$/.exec(message)?.[1];
  if (unknownKeyword !== undefined) {
    const at = findSchema(schema, (s) => Object.hasOwn(s, unknownKeyword)) ?? [];
    const known = Object.keys(schemaAjv().RULES.keywords);
    return {
      path: [...at, unknownKeyword],
      at: "key",
      message: `unknown keyword \`${unknownKeyword}\``,
      ...withSuggestion(
        suggest(unknownKeyword, known),
        "JSON Schema would silently ignore it: remove it, or put notes in `description`",
      ),
    };
  }
  const format = /^unknown format "(.+)" ignored in schema at path "#(.*)"$/.exec(message);
  if (format) {
    return {
      path: [...decodePointer(format[2]!, schema), "format"],
      at: "value",
      message: `unknown format \`${format[1]}\``,
      ...withSuggestion(
        suggest(format[1]!, FORMATS),
        "use a standard format such as date-time, date, email, uri or uuid",
      ),
    };
  }
  const missingRef = (error as { missingRef?: unknown })?.missingRef;
  if (typeof missingRef === "string") {
    let refPath: SchemaPath = [];
    let written = missingRef;
    walkSchemas(schema, (s, path) => {
      if (typeof s.$ref === "string" && missingRef.endsWith(s.$ref) && !refPath.length) {
        refPath = [...path, "$ref"];
        written = s.$ref;
      }
    });
    const defs = isObject(schema) && isObject(schema.$defs) ? Object.keys(schema.$defs) : [];
    const wanted = /^#\/\$defs\/(.+)$/.exec(written)?.[1];
    const near = wanted ? closest(wanted, defs) : undefined;
    return {
      path: refPath,
      at: "value",
      message: `\`$ref\` \`${written}\` does not resolve`,
      ...withSuggestion(
        near === undefined
          ? undefined
          : { hint: `did you mean \`#/$defs/${near}\`?`, replacement: `#/$defs/${near}` },
        "refer to a schema under `$defs` of this schema: `#/$defs/NAME`",
      ),
    };
  }
  if (error instanceof RegexError) {
    let found: SchemaProblem | undefined;
    walkSchemas(schema, (s, path) => {
      if (found) return;
      const bad = (p: unknown) => typeof p === "string" && regexProblem(p) !== undefined;
      if (bad(s.pattern)) found = { path: [...path, "pattern"], at: "value", message: "" };
      else if (isObject(s.patternProperties)) {
        const key = Object.keys(s.patternProperties).find(bad);
        if (key !== undefined)
          found = { path: [...path, "patternProperties", key], at: "key", message: "" };
      }
    });
    return { ...(found ?? { path: [], at: "value" }), message: error.message, hint: error.hint };
  }
  return { path: [], at: "value", message: `not a usable JSON Schema: ${message}` };
}

// ---------------------------------------------------------------------------------------------
// Likely mistakes that are legal JSON Schema

/** `required` names missing from `properties` beside it: a typo that makes every value fail. */
function requiredTypos(schema: unknown): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  walkSchemas(schema, (s, path) => {
    if (!isObject(s.properties) || !Array.isArray(s.required)) return;
    // Properties may come from elsewhere: then a name missing here is not a mistake.
    const open = ["patternProperties", "allOf", "anyOf", "oneOf", "$ref", "if", "dependentSchemas"];
    if (open.some((k) => k in s)) return;
    if (s.additionalProperties !== undefined && s.additionalProperties !== false) return;
    const names = Object.keys(s.properties);
    s.required.forEach((name, i) => {
      if (typeof name !== "string" || names.includes(name)) return;
      out.push({
        path: [...path, "required", i],
        at: "value",
        message: `\`required\` lists \`${name}\`, which is not in \`properties\``,
        ...withSuggestion(
          suggest(name, names),
          `add \`${name}\` to \`properties\`, or remove it here`,
        ),
      });
    });
  });
  return out;
}

/**
 * Why `schema` is not a usable JSON Schema (draft 2020-12): meta-schema violations, then what strict
 * compilation rejects (unknown keywords and formats, unresolved `$ref`s, bad patterns), then
 * `required` names that are not among `properties`.
 */
export function schemaProblems(schema: unknown): readonly SchemaProblem[] {
  if (typeof schema === "boolean") return [];
  if (!isObject(schema)) return [{ path: [], at: "value", message: "a JSON Schema is a mapping" }];
  // Specs repeat their schemas (every `output.schema` of a kind, across the files of a run): the
  // answer depends on the schema's content only. A schema with a number JSON cannot hold (`.inf`,
  // which it would write as `null`) is not remembered.
  let exact = true;
  const key = JSON.stringify(schema, (_, v) => {
    if (typeof v === "number" && !Number.isFinite(v)) exact = false;
    return v;
  });
  if (!exact) return problemsOf(schema);
  let found = answered.get(key);
  if (!found) {
    found = problemsOf(schema);
    if (answered.size >= MAX_ANSWERED) answered.delete(answered.keys().next().value as string);
    answered.set(key, found);
  }
  return found;
}

const answered = new Map<string, readonly SchemaProblem[]>();
const MAX_ANSWERED = 1000;

function problemsOf(schema: Record<string, unknown>): SchemaProblem[] {
  const declared = schema.$schema;
  if (declared !== undefined && String(declared).replace(/#$/, "") !== DRAFT_2020_12) {
    return [
      {
        path: ["$schema"],
        at: "value",
        message: `only JSON Schema draft 2020-12 is supported, not ${JSON.stringify(declared)}`,
        hint: `remove \`$schema\`, or set it to "${DRAFT_2020_12}"`,
      },
    ];
  }
  const invalid = metaSchemaErrors(schema);
  if (invalid.length) return metaProblems(schema, invalid);
  try {
    compile(schema);
  } catch (e) {
    return [compileProblem(schema, e)];
  }
  return requiredTypos(schema);
}
