/**
 * What a loaded export is, as plain data: the checker reasons about these facts rather than about
 * values, so the same rules work whether the module was loaded in this process (compile, run) or in
 * a separate one (`validate --load-modules`), whose answer can only be data.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { isObject } from "../spec/data.js";
import type { JsonSchema } from "../spec/spec-types.generated.js";

/** The shape of an export, as far as the spec cares. */
export type ExportFacts =
  | { kind: "function" }
  | { kind: "class"; className: string }
  /** A LangChain tool (or anything shaped like one), with what the checker needs from it. */
  | { kind: "tool"; description?: string; jsonSchema?: JsonSchema }
  /** Anything else: `what` says what it is ("a number", "an object", "null", ...). */
  | { kind: "other"; what: string }
  /** Reading it threw (a Proxy, a getter): `error` is the first line of what it threw. */
  | { kind: "unreadable"; error: string };

/** A LangChain tool: `tool(...)`, a StructuredTool instance, or anything shaped like one. */
export const isLangChainTool = (v: unknown): v is Record<string, unknown> => {
  if ((typeof v !== "object" && typeof v !== "function") || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.invoke === "function" && (typeof o.name === "string" || o.schema !== undefined);
};

const isClass = (v: unknown): boolean =>
  typeof v === "function" && /^class[\s{]/.test(Function.prototype.toString.call(v));

const describeValue = (v: unknown): string => {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  return `a ${typeof v}`;
};

const firstLine = (e: unknown): string =>
  (e instanceof Error ? e.message : String(e)).split("\n")[0] ?? "";

/** The export's shape, without a tool's details (what compile needs to refuse a wrong export). */
export function exportShape(value: unknown): ExportFacts {
  try {
    if (isLangChainTool(value)) return { kind: "tool" };
    if (isClass(value))
      return { kind: "class", className: (value as { name?: string }).name || "MyTool" };
    if (typeof value === "function") return { kind: "function" };
    return { kind: "other", what: describeValue(value) };
  } catch (e) {
    // An export whose properties throw when read (a Proxy, a getter) cannot be used either.
    return { kind: "unreadable", error: firstLine(e) };
  }
}

/** The export's shape and, for a tool, its description and argument schema (what the checker needs). */
export async function exportFacts(value: unknown, moduleAbs: string): Promise<ExportFacts> {
  const shape = exportShape(value);
  if (shape.kind !== "tool") return shape;
  const tool = value as Record<string, unknown>;
  try {
    const description = typeof tool.description === "string" ? tool.description : undefined;
    const jsonSchema = await argumentsJsonSchema(tool.schema, moduleAbs);
    return {
      kind: "tool",
      ...(description !== undefined ? { description } : {}),
      ...(jsonSchema !== undefined ? { jsonSchema } : {}),
    };
  } catch (e) {
    return { kind: "unreadable", error: firstLine(e) };
  }
}

/**
 * A tool's schema as JSON Schema: zod v4 (and other Standard JSON Schema libraries) convert
 * themselves; zod v3 goes through the converter of the LangChain the tool's own module resolves
 * (so graphspec's validate path never imports LangChain, and the converter matches the tool's
 * version); a plain JSON Schema is used as it is.
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
