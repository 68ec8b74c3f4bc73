// Generates the code that derives from schema/graph.schema.json:
//   src/spec/spec-types.generated.ts       TypeScript types of a spec (json-schema-to-typescript)
//   src/spec/schema-validator.generated.ts the schema precompiled by Ajv (standalone), so that
//                                `graphspec validate` does not compile the schema at start-up.
//   src/json-schema/meta-schema-validator.generated.ts  the draft 2020-12 meta-schema precompiled
//                                the same way: the check that a schema a spec holds is one.
// `npm run gen` writes them; test/generated.test.ts fails when they are stale.
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { generateArtifacts } from "./gen-lib.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const schema = JSON.parse(await readFile(`${root}schema/graph.schema.json`, "utf8"));
const out = await generateArtifacts(schema);
for (const [path, text] of Object.entries(out)) {
  await writeFile(root + path, text);
  console.log(`wrote ${path}`);
}
