/** The one Ajv (draft 2020-12) for the JSON Schemas users write and the tool schemas code gives. */
import type { ValidateFunction } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";

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

// Node gives the CommonJS exports object; its `default` is the class.
const Ajv2020 = Ajv2020Module.default;
type Ajv = InstanceType<typeof Ajv2020>;

let instance: Ajv | undefined;

/** The one Ajv: draft 2020-12, strict about keywords and formats, quiet (no console logging). */
export function schemaAjv(): Ajv {
  if (!instance) {
    instance = new Ajv2020({
      strict: true,
      // Legal JSON Schema that strict mode would reject: not the user's mistake to report.
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
      allErrors: true,
      logger: false,
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

/** Compiles without keeping the schema in Ajv's registry (user schemas may reuse `$id`s); memoized by content. */
export function compile(schema: object | boolean): ValidateFunction {
  const key = JSON.stringify(schema);
  let entry = compiled.get(key);
  if (entry === undefined) {
    const ajv = schemaAjv();
    try {
      entry = ajv.compile(schema);
    } catch (e) {
      entry = e instanceof Error ? e : new Error(String(e));
    } finally {
      if (typeof schema === "object") ajv.removeSchema(schema);
    }
    if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, entry);
  }
  if (entry instanceof Error) throw entry;
  return entry;
}
