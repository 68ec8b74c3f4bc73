/** The generated types and precompiled validator must match schema/graph.schema.json (run `npm run gen`). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
// @ts-expect-error: a plain .mjs build script without types
import { generateArtifacts } from "../scripts/gen-lib.mjs";

const root = join(import.meta.dirname, "..");

it("generated files are in sync with the schema", async () => {
  const schema = JSON.parse(readFileSync(join(root, "schema/graph.schema.json"), "utf8"));
  const artifacts: Record<string, string> = await generateArtifacts(schema);
  for (const [path, text] of Object.entries(artifacts)) {
    expect(readFileSync(join(root, path), "utf8"), `${path} is stale: run \`npm run gen\``).toBe(
      text,
    );
  }
});

it("the generated validators are ES modules that require() nothing", () => {
  for (const path of [
    "src/spec/schema-validator.generated.ts",
    "src/json-schema/meta-schema-validator.generated.ts",
  ]) {
    expect(readFileSync(join(root, path), "utf8"), path).not.toMatch(/\brequire\(/);
  }
});
