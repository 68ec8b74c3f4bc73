import schema from "../../../schema/graph.schema.json" with { type: "json" };
import { EXIT, type Io } from "../io.js";

/** `graphspec schema`: prints the spec's JSON Schema, for editors and other tools. */
export async function schemaCommand(_argv: string[], io: Io): Promise<number> {
  io.out(JSON.stringify(schema, null, 2));
  return EXIT.ok;
}
