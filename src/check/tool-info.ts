/**
 * What the checker knows about a declared tool: its argument schema as JSON Schema, its
 * description, and the arguments `bind` fills. Memoized per document.
 */

import { isObject } from "../spec/data.js";
import type { JsonSchema, Tool } from "../spec/spec-types.generated.js";
import type { CheckContext } from "./check-context.js";
import { checkedModuleRefs } from "./module-refs.js";

export interface ToolInfo {
  name: string;
  /** `langchain`: a LangChain tool; `function`: a plain function with the spec's schema; `spec`: the module was not loaded, the spec's schema. */
  source: "langchain" | "function" | "spec";
  description?: string;
  /** The arguments' JSON Schema (draft 2020-12), before `bind` hides any; undefined when it cannot be derived. */
  jsonSchema?: JsonSchema;
  /** Arguments the spec's `bind` fills. */
  bound: string[];
}

async function computeToolInfo(ctx: CheckContext, name: string): Promise<ToolInfo | undefined> {
  const decl = ctx.spec.tools?.[name] as Tool | undefined;
  if (!isObject(decl)) return undefined;
  const bound = isObject(decl.bind) ? Object.keys(decl.bind) : [];
  const specDescription = typeof decl.description === "string" ? decl.description : undefined;
  const specSchema =
    isObject(decl.schema) || typeof decl.schema === "boolean" ? decl.schema : undefined;
  const base = { name, bound, ...(specDescription ? { description: specDescription } : {}) };
  const refs = await checkedModuleRefs(ctx);
  const resolved = refs.find((r) => r.ref.kind === "tool" && r.ref.tool?.name === name);
  const facts = resolved?.facts;
  // Not loaded (the default: modules are parsed, not run), or not usable: only the spec's own
  // schema is known.
  if (!facts) {
    return specSchema === undefined
      ? undefined
      : { ...base, source: "spec", jsonSchema: specSchema };
  }
  if (facts.kind === "tool") {
    const description = specDescription ?? facts.description;
    const jsonSchema = facts.jsonSchema;
    return {
      ...base,
      source: "langchain",
      ...(description ? { description } : {}),
      ...(jsonSchema !== undefined ? { jsonSchema } : {}),
    };
  }
  return {
    ...base,
    source: "function",
    ...(specSchema !== undefined ? { jsonSchema: specSchema } : {}),
  };
}

/**
 * What is known about the tool declared as `name`, or undefined when it is not declared or its
 * module did not resolve to a tool (other rules report why).
 */
export function toolInfo(ctx: CheckContext, name: string): Promise<ToolInfo | undefined> {
  return ctx.memo(`tools:info:${name}`, () => computeToolInfo(ctx, name));
}
