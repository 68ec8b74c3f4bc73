import Ajv2020 from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import { compile } from "json-schema-to-typescript";

const HEADER = "// Generated from schema/graph.schema.json by `npm run gen`. Do not edit.\n";

/** Ajv options shared by the generated validator and any runtime compilation. */
export const ajvOptions = {
  allErrors: true,
  discriminator: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
  code: { source: true, esm: true, lines: false },
};

export async function generateArtifacts(schema) {
  const ajv = new Ajv2020.default(ajvOptions);
  ajv.addKeyword("markdownDescription");
  ajv.addKeyword("tsType");
  ajv.addFormat("regex", true);
  const validate = ajv.compile(schema);
  // Ajv's standalone output still require()s its runtime helpers even in ESM mode.
  const validatorCode = standaloneCode
    .default(ajv, validate)
    .replaceAll('require("ajv/dist/runtime/ucs2length").default', "ucs2length")
    .replaceAll('require("ajv/dist/runtime/equal").default', "equal");
  const types = await compile(schema, "GraphSpec", {
    bannerComment: `${HEADER}/** A JSON Schema object (draft 2020-12). */\nexport type JsonSchemaObject = { [keyword: string]: unknown };`,
    additionalProperties: false,
    unreachableDefinitions: true,
    strictIndexSignatures: false,
    style: { singleQuote: false },
  });
  return {
    "src/json-schema/meta-schema-validator.generated.ts": metaSchemaValidator(),
    "schema/graph.portable.schema.json": `${JSON.stringify(portableSchema(schema), null, 2)}\n`,
    "src/spec/spec-types.generated.ts": types,
    "src/spec/schema-validator.generated.ts": `${HEADER}// @ts-nocheck\nimport ucs2lengthModule from "ajv/dist/runtime/ucs2length.js";\n// Node gives the CommonJS exports object; bundlers may give its default export directly.\nconst ucs2length = ucs2lengthModule.default ?? ucs2lengthModule;\nimport equalModule from "ajv/dist/runtime/equal.js";\nconst equal = equalModule.default ?? equalModule;\n${validatorCode.replace('"use strict";', "")}\n`,
  };
}

/**
 * The draft 2020-12 meta-schema precompiled, the validator that says whether a JSON Schema a user
 * wrote (or a tool's code gave) is one. Ajv compiles it on the first schema it checks: about a third
 * of `graphspec validate`'s start-up on one spec. The options are src/json-schema/ajv.ts's (its
 * formats, registered as accepting anything, generate no code here); the patterns are the
 * meta-schema's own, fixed, so they run on JavaScript's RegExp rather than RE2.
 */
function metaSchemaValidator() {
  const ajv = new Ajv2020.default({
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allErrors: true,
    logger: false,
    code: { source: true, esm: true, lines: false },
  });
  const validate = ajv.getSchema("https://json-schema.org/draft/2020-12/schema");
  const code = standaloneCode
    .default(ajv, validate)
    .replaceAll('require("ajv/dist/runtime/equal").default', "equal");
  return `// Generated from Ajv's draft 2020-12 meta-schema by \`npm run gen\`. Do not edit.\n// @ts-nocheck\nimport equalModule from "ajv/dist/runtime/equal.js";\n// Node gives the CommonJS exports object; bundlers may give its default export directly.\nconst equal = equalModule.default ?? equalModule;\n${code.replace('"use strict";', "")}\n`;
}

/** Keywords of schema/graph.schema.json only some tools know: editors, our type generator, Ajv (OpenAPI `discriminator`, which speeds up and sharpens `oneOf` errors without changing what passes). */
const EDITOR_ONLY = new Set(["markdownDescription", "tsType", "discriminator"]);

const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
const NUMBER_KEYWORDS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
];
const TYPE_KEYWORDS = {
  array: ["items", "prefixItems", "contains", "minItems", "maxItems", "uniqueItems"],
  object: [
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
  ],
  string: ["minLength", "maxLength", "pattern", "format"],
  number: NUMBER_KEYWORDS,
  integer: NUMBER_KEYWORDS,
};

/**
 * schema/graph.portable.schema.json: the spec schema as any draft 2020-12 validator compiles it with
 * its defaults (`new Ajv2020()` is strict): the same constraints, without the keywords editors
 * (`markdownDescription`) and json-schema-to-typescript (`tsType`) read — a markdown text becomes
 * the `description` where there is none —, without `format: regex` (an annotation in 2020-12, and
 * a format a validator must be taught), and with union types spelled as `anyOf`.
 */
export function portableSchema(schema) {
  // A map of names to schemas: its keys are names (a property may be called `tsType`), not keywords.
  const walkMap = (map) =>
    Object.fromEntries(Object.entries(map).map(([name, value]) => [name, walk(value)]));
  const walk = (node) => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (EDITOR_ONLY.has(key)) continue;
      if (key === "format" && value === "regex") continue;
      out[key] =
        SCHEMA_MAPS.has(key) && value && typeof value === "object" ? walkMap(value) : walk(value);
    }
    if (typeof node.markdownDescription === "string" && out.description === undefined)
      out.description = node.markdownDescription;
    if (Array.isArray(out.type)) {
      // Each branch takes the keywords that apply to its type: strict validators want them together.
      const { type, ...rest } = out;
      const branches = type.map((t) => {
        const branch = { type: t };
        for (const key of TYPE_KEYWORDS[t] ?? []) if (key in rest) branch[key] = rest[key];
        return branch;
      });
      for (const t of type) for (const key of TYPE_KEYWORDS[t] ?? []) delete rest[key];
      return { ...rest, anyOf: branches };
    }
    return out;
  };
  return {
    ...walk(schema),
    $id: schema.$id.replace(/graph\.schema\.json$/, "graph.portable.schema.json"),
  };
}
