/** The one Ajv (draft 2020-12) for the JSON Schemas users write and the tool schemas code gives. */
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import type Ajv2020Module from "ajv/dist/2020.js";
import { ajvRegExp } from "../spec/linear-regex.js";
import generatedMetaValidator from "./meta-schema-validator.generated.js";
import { walkSchemas } from "./walk.js";

export const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/**
 * Format names from JSON Schema, OpenAPI and zod's JSON Schema output. Registered as accepting
 * anything: graphspec checks the names (a typo such as `emial` is an error) but not the values.
 */
export const FORMATS = [
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "idn-email",
  "hostname",
  "idn-hostname",
  "ipv4",
  "ipv6",
  "uri",
  "uri-reference",
  "iri",
  "iri-reference",
  "uri-template",
  "uuid",
  "json-pointer",
  "relative-json-pointer",
  "regex",
  "url",
  "byte",
  "binary",
  "password",
  "int32",
  "int64",
  "float",
  "double",
  "guid",
  "cuid",
  "cuid2",
  "ulid",
  "nanoid",
  "xid",
  "ksuid",
  "emoji",
  "base64",
  "base64url",
  "cidrv4",
  "cidrv6",
  "e164",
  "jwt",
  "mac",
];

const validateMetaSchema = generatedMetaValidator as unknown as ValidateFunction;

type Ajv = InstanceType<typeof Ajv2020Module.default>;

/**
 * Ajv's compiler (some 80 modules) loads on the first schema compiled, not with graphspec: a
 * spec with no JSON Schema in it (no `output.schema`, state `default`, tool schema) never needs
 * it. It is CommonJS, so `require` loads it synchronously where it is first needed.
 */
const loadAjv2020 = (): typeof Ajv2020Module.default =>
  (createRequire(import.meta.url)("ajv/dist/2020.js") as typeof Ajv2020Module).default;

let instance: Ajv | undefined;

/**
 * The one Ajv: draft 2020-12, strict about keywords and formats, quiet (no console logging), and
 * matching `pattern`s in linear time (RE2; a backtracking pattern once held a run for 112 s).
 */
export function schemaAjv(): Ajv {
  if (!instance) {
    const Ajv2020 = loadAjv2020();
    instance = new Ajv2020({
      strict: true,
      // Legal JSON Schema that strict mode would reject: not the user's mistake to report.
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
      allErrors: true,
      logger: false,
      code: { regExp: ajvRegExp },
      // `compile` checks against the precompiled meta-schema (metaSchemaErrors) first: Ajv would
      // compile the meta-schema itself on the first schema, most of a one-file validate's start-up.
      validateSchema: false,
    });
    for (const name of FORMATS) instance.addFormat(name, true);
  }
  return instance;
}

/**
 * Compiled validators by schema text. Specs repeat the same small schemas (every `output.schema`
 * of a kind, one tool's arguments across many specs); compiling is most of their checking cost.
 */
const compiled = new Map<string, ValidateFunction | Error>();
const MAX_CACHED = 1000;

/**
 * An `integer` is a safe integer, within ±(2^53 − 1): JSON Schema calls 1e300 an integer, but
 * beyond 2^53 a JavaScript number has lost digits, and CEL could not take it as an `int`. Adds
 * those bounds to every schema that allows integers but not other numbers (on a copy).
 */
function withSafeIntegers(schema: object | boolean, text: string): object | boolean {
  if (typeof schema === "boolean" || !text.includes('"integer"')) return schema;
  const copy = JSON.parse(text) as object;
  walkSchemas(copy, (s) => {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.includes("integer") || types.includes("number")) return;
    if (!(typeof s.maximum === "number" && s.maximum <= MAX_SAFE_INTEGER))
      s.maximum = MAX_SAFE_INTEGER;
    if (!(typeof s.minimum === "number" && s.minimum >= -MAX_SAFE_INTEGER))
      s.minimum = -MAX_SAFE_INTEGER;
  });
  return copy;
}

export const { MAX_SAFE_INTEGER } = Number;

/**
 * What makes `schema` not a draft 2020-12 JSON Schema, by the meta-schema: `[]` when it is one.
 * A schema naming another `$schema` (draft-07, from older zod) is Ajv's to judge: it knows
 * which it has, and throws for the ones it does not, as it did before the meta-schema was
 * precompiled.
 */
export function metaSchemaErrors(schema: object | boolean): ErrorObject[] {
  if (typeof schema === "boolean") return [];
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined || declared === DRAFT_2020_12 || declared === `${DRAFT_2020_12}#`) {
    return validateMetaSchema(schema) ? [] : (validateMetaSchema.errors ?? []);
  }
  const ajv = schemaAjv();
  return ajv.validateSchema(schema) ? [] : (ajv.errors ?? []);
}

/** Compiles without keeping the schema in Ajv's registry (user schemas may reuse `$id`s); memoized by content. */
export function compile(schema: object | boolean): ValidateFunction {
  const key = JSON.stringify(schema);
  let entry = compiled.get(key);
  if (entry === undefined) {
    const ajv = schemaAjv();
    const safe = withSafeIntegers(schema, key);
    try {
      // Ajv's own check (`validateSchema: true`) threw this message.
      const invalid = metaSchemaErrors(schema);
      if (invalid.length) throw new Error(`schema is invalid: ${ajv.errorsText(invalid)}`);
      entry = ajv.compile(safe);
    } catch (e) {
      entry = e instanceof Error ? e : new Error(String(e));
    } finally {
      if (typeof safe === "object") ajv.removeSchema(safe);
    }
    if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, entry);
  }
  if (entry instanceof Error) throw entry;
  return entry;
}
