/**
 * What the checker knows about a declared tool: its argument schema as JSON Schema, its
 * description, and the arguments `bind` fills. Memoized per document.
 */

import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { isLangChainTool } from "../modules/index.js";
import { isObject } from "../spec/data.js";
import type { JsonSchema, Tool } from "../spec/spec-types.generated.js";
import type { CheckContext } from "./check-context.js";
import { checkedModuleRefs } from "./module-refs.js";

export interface ToolInfo {
  name: string;
  /** `langchain`: a LangChain tool; `function`: a plain function with the spec's schema; `spec`: modules not loaded, the spec's schema. */
  source: "langchain" | "function" | "spec";
  description?: string;
  /** The arguments' JSON Schema (draft 2020-12), before `bind` hides any; undefined when it cannot be derived. */
  jsonSchema?: JsonSchema;
  /** Arguments the spec's `bind` fills. */
  bound: string[];
}

/**
 * A tool's schema as JSON Schema: zod v4 (and other Standard JSON Schema libraries) convert
 * themselves; zod v3 goes through the converter of the LangChain the tool's own module resolves
 * (so graphspec's check/ stage never imports LangChain, and the converter matches the tool's version);
 * a plain JSON Schema is used as it is.
 */
export async function argumentsJsonSchema(
  schema: unknown,
  toolModule?: string,
): Promise<JsonSchema | undefined> {
  if (!isObject(schema) && typeof schema !== "function") return undefined;
  const s = schema as Record<string, unknown>;
  try {
    const standard = s["~standard"] as
      | { jsonSchema?: { input?: (o: { target: string }) => unknown } }
      | undefined;
    if (typeof standard?.jsonSchema?.input === "function") {
      return standard.jsonSchema.input({ target: "draft-2020-12" }) as JsonSchema;
    }
    if ((isObject(s._def) || "_zod" in s) && toolModule) {
      const converter = createRequire(toolModule).resolve("@langchain/core/utils/json_schema");
      const { toJsonSchema } = (await import(pathToFileURL(converter).href)) as {
        toJsonSchema: (schema: unknown) => unknown;
      };
      const converted: unknown = toJsonSchema(s);
      if (!isObject(converted)) return undefined;
      // It says draft-07; the keywords it writes for arguments read the same in 2020-12.
      const { $schema: _draft07, ...rest } = converted;
      return rest;
    }
    return isObject(schema) ? (schema as JsonSchema) : undefined;
  } catch {
    return undefined;
  }
}

async function computeToolInfo(ctx: CheckContext, name: string): Promise<ToolInfo | undefined> {
  const decl = ctx.spec.tools?.[name] as Tool | undefined;
  if (!isObject(decl)) return undefined;
  const bound = isObject(decl.bind) ? Object.keys(decl.bind) : [];
  const specDescription = typeof decl.description === "string" ? decl.description : undefined;
  const specSchema =
    isObject(decl.schema) || typeof decl.schema === "boolean" ? decl.schema : undefined;
  const base = { name, bound, ...(specDescription ? { description: specDescription } : {}) };
  if (ctx.options.loadModules === false) {
    return specSchema === undefined
      ? undefined
      : { ...base, source: "spec", jsonSchema: specSchema };
  }
  const refs = await checkedModuleRefs(ctx);
  const resolved = refs.find((r) => r.ref.kind === "tool" && r.ref.tool?.name === name);
  const loaded = resolved?.loaded;
  if (!loaded) return undefined;
  const value = loaded.value;
  if (isLangChainTool(value)) {
    const description =
      specDescription ?? (typeof value.description === "string" ? value.description : undefined);
    const jsonSchema = await argumentsJsonSchema(value.schema, resolved.abs);
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
