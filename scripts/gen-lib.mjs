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
  // Ajv's standalone output still require()s one runtime helper even in ESM mode.
  const validatorCode = standaloneCode
    .default(ajv, validate)
    .replaceAll('require("ajv/dist/runtime/ucs2length").default', "ucs2length");
  const types = await compile(schema, "GraphSpec", {
    bannerComment: `${HEADER}/** A JSON Schema object (draft 2020-12). */\nexport type JsonSchemaObject = { [keyword: string]: unknown };`,
    additionalProperties: false,
    unreachableDefinitions: true,
    strictIndexSignatures: false,
    style: { singleQuote: false },
  });
  return {
    "src/spec/spec-types.generated.ts": types,
    "src/spec/schema-validator.generated.ts": `${HEADER}// @ts-nocheck\nimport ucs2lengthModule from "ajv/dist/runtime/ucs2length.js";\n// Node gives the CommonJS exports object; bundlers may give its default export directly.\nconst ucs2length = ucs2lengthModule.default ?? ucs2lengthModule;\n${validatorCode.replace('"use strict";', "")}\n`,
  };
}
