import { schemaProblems } from "../../json-schema/schema-problems.js";
import type { CheckContext } from "../check-context.js";
import type { Rule } from "../rule.js";

const WHY = "providers reject other roots";

/** Providers only accept an object with named fields as a structured-output schema. */
function checkRoot(ctx: CheckContext, at: (string | number)[], schema: unknown): void {
  if (typeof schema !== "object" || schema === null) {
    ctx.report("output-schema", at, {
      message: `structured output needs an object schema at the root, not \`${String(schema)}\`: ${WHY}`,
      hint: "e.g. `{ type: object, properties: { answer: { type: string } }, required: [answer] }`",
    });
    return;
  }
  const root = schema as Record<string, unknown>;
  if (root.type !== "object") {
    const hasType = root.type !== undefined;
    const shown = typeof root.type === "string" ? root.type : JSON.stringify(root.type);
    ctx.report("output-schema", hasType ? [...at, "type"] : at, {
      message: hasType
        ? `structured output needs \`type: object\` at the root, not \`type: ${shown}\`: ${WHY}`
        : `structured output needs \`type: object\` at the root: ${WHY}`,
      hint: hasType
        ? "wrap the value in a field: `{ type: object, properties: { value: <this schema> }, required: [value] }`"
        : "add `type: object`, with the fields under `properties`",
    });
    return;
  }
  if (typeof root.properties !== "object" || root.properties === null) {
    ctx.report("output-schema", at, {
      message:
        "structured output needs `properties` at the root: providers reject objects without named fields",
      hint: "list the fields the model must fill in under `properties`",
    });
  }
}

/**
 * An llm or agent node's `output.schema` is a valid JSON Schema that providers accept for
 * structured output, and an llm asking for structured output offers no tools.
 */
export const outputSchema: Rule = {
  name: "output-schema",
  check(ctx) {
    for (const [name, node] of Object.entries(ctx.spec.nodes ?? {})) {
      if (node?.kind !== "llm" && node?.kind !== "agent") continue;
      const output = node.output as { schema?: unknown } | undefined;
      if (typeof output !== "object" || output === null || !("schema" in output)) continue;
      if (node.kind === "llm" && Array.isArray(node.tools) && node.tools.length) {
        // One call cannot both offer tools and demand a structured answer (compile refuses it too).
        ctx.report("output-schema", ["nodes", name, "output"], {
          message: `llm node \`${name}\` has both \`tools\` and \`output\`: a model asked for a structured answer cannot also ask for tools`,
          hint: "use an `agent` node (its `output` is its final answer), or an llm with `tools` followed by one with `output`",
          at: "key",
        });
      }
      const schema = output.schema;
      const at = ["nodes", name, "output", "schema"];
      if (typeof schema !== "boolean" && (typeof schema !== "object" || schema === null)) continue;
      if (Array.isArray(schema)) continue;
      for (const p of schemaProblems(schema)) {
        ctx.report("output-schema", [...at, ...p.path], {
          message: p.message,
          hint: p.hint,
          replacement: p.replacement,
          at: p.at,
        });
      }
      checkRoot(ctx, at, schema);
    }
  },
};
