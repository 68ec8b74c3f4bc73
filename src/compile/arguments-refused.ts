/**
 * A tool's arguments refused by its schema: telling it apart from the tool's own failure, and
 * saying which argument and why, since LangChain's ToolInputParsingException names none ("Received
 * tool input did not match expected schema").
 */
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { argumentLabel, validatorFor, valueProblems } from "../json-schema/value-problems.js";
import { isObject } from "../spec/data.js";

/**
 * Whether a tool's failure is LangChain's ToolInputParsingException (its arguments refused by its
 * schema) — by the class's name: the error's `name` is plain "Error", and a tool module may bring
 * its own copy of @langchain/core, so `instanceof` cannot tell.
 */
export function argumentsRefused(e: unknown): boolean {
  return (
    (e as { constructor?: { name?: unknown } })?.constructor?.name === "ToolInputParsingException"
  );
}

/** The tool's argument schema as JSON Schema (a zod schema converted), or undefined. */
function jsonSchemaOf(schema: unknown): object | undefined {
  try {
    if (isObject(schema) && !("_def" in schema) && !("_zod" in schema)) return schema;
    const json: unknown = toJsonSchema(schema as never);
    if (!isObject(json)) return undefined;
    const { $schema: _draft, ...rest } = json;
    return rest;
  } catch {
    return undefined;
  }
}

/**
 * Why `args` do not fit the tool's `schema`, one argument at a time ("argument `a` must be a
 * number, not the string "x""), or — when our own check finds nothing to say — the details
 * LangChain put below its first line (zod's issues, with their paths).
 */
export function refusedArguments(schema: unknown, args: unknown, error: unknown): string {
  const json = jsonSchemaOf(schema);
  const validate = json && validatorFor(json);
  const problems = validate ? valueProblems(validate, args, argumentLabel) : [];
  if (problems.length) return problems.map((p) => p.message).join("; ");
  const lines = String((error as Error)?.message ?? error)
    .split("\n")
    .slice(1)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.length ? lines.join(" ") : "they do not match its schema";
}
