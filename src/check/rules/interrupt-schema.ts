import { schemaProblems } from "../../json-schema/schema-problems.js";
import type { Rule } from "../rule.js";

const isSchema = (v: unknown): v is object | boolean =>
  typeof v === "boolean" || (typeof v === "object" && v !== null && !Array.isArray(v));

/** An interrupt's `schema` (what the resume value must match) is a valid draft 2020-12 JSON Schema. */
export const interruptSchema: Rule = {
  name: "interrupt-schema",
  check(ctx) {
    for (const [name, node] of Object.entries(ctx.spec.nodes ?? {})) {
      if (node?.kind !== "interrupt" || !isSchema(node.schema)) continue;
      for (const p of schemaProblems(node.schema)) {
        ctx.report("interrupt-schema", ["nodes", name, "schema", ...p.path], {
          message: p.message,
          hint: p.hint,
          replacement: p.replacement,
          at: p.at,
        });
      }
    }
  },
};
