/**
 * What the checker knows about a declared tool: its argument schema as JSON Schema, its
 * description, and the arguments `bind` fills. Memoized per document.
 */

import { isObject } from "../spec/data.js";
import type { JsonSchema, Tool } from "../spec/spec-types.generated.js";
import type { CheckContext } from "./check-context.js";
import { mcpTools, recordedMcpTool } from "./mcp-tools.js";
import { checkedModuleRefs } from "./module-refs.js";

export interface ToolInfo {
  name: string;
  /** `langchain`: a LangChain tool; `function`: a plain function with the spec's schema; `spec`: the module was not loaded, the spec's schema; `mcp`: an MCP server's tool, as graphspec.lock.json records it. */
  source: "langchain" | "function" | "spec" | "mcp";
  description?: string;
  /** The arguments' JSON Schema (draft 2020-12), before `bind` hides any; undefined when it cannot be derived. */
  jsonSchema?: JsonSchema;
  /** Arguments the spec's `bind` fills. */
  bound: string[];
}

/**
 * An MCP tool's arguments as its server gave them. A server's SDK may say draft-07 (zod's
 * converter does); the keywords a tool's arguments use read the same in draft 2020-12, which the
 * checker's Ajv speaks, so the `$schema` is dropped rather than the schema refused.
 */
function mcpArguments(schema: Record<string, unknown>): JsonSchema {
  const { $schema: _draft, ...rest } = schema;
  return rest as JsonSchema;
}

async function mcpToolInfo(
  ctx: CheckContext,
  name: string,
  decl: Record<string, unknown> | undefined,
): Promise<ToolInfo | undefined> {
  if (!(await mcpTools(ctx)).tools.has(name)) return undefined;
  const recorded = await recordedMcpTool(ctx, name);
  const description =
    typeof decl?.description === "string" ? decl.description : recorded?.description;
  return {
    name,
    source: "mcp",
    bound: isObject(decl?.bind) ? Object.keys(decl.bind) : [],
    ...(description ? { description } : {}),
    ...(recorded ? { jsonSchema: mcpArguments(recorded.inputSchema) } : {}),
  };
}

async function computeToolInfo(ctx: CheckContext, name: string): Promise<ToolInfo | undefined> {
  const tools = isObject(ctx.spec.tools) ? ctx.spec.tools : {};
  const decl = (Object.hasOwn(tools, name) ? tools[name] : undefined) as Tool | undefined;
  if (!isObject(decl) || "mcp" in decl)
    return mcpToolInfo(ctx, name, isObject(decl) ? (decl as Record<string, unknown>) : undefined);
  const bound = isObject(decl.bind) ? Object.keys(decl.bind) : [];
  const specDescription = typeof decl.description === "string" ? decl.description : undefined;
  const specSchema =
    "schema" in decl && (isObject(decl.schema) || typeof decl.schema === "boolean")
      ? decl.schema
      : undefined;
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
 * What is known about the tool declared as `name` (in `tools`, or taken from an MCP server), or
 * undefined when it is not declared or its module did not resolve to a tool (other rules report why).
 */
export function toolInfo(ctx: CheckContext, name: string): Promise<ToolInfo | undefined> {
  return ctx.memo(`tools:info:${name}`, () => computeToolInfo(ctx, name));
}
