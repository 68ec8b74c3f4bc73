/**
 * What the loading process answers, and reading that answer back. The answer is written by a
 * process that runs the user's module, so it is checked like any untrusted input: its shape, its
 * size, and every string in it.
 */
import { isObject } from "../../spec/data.js";
import type { JsonSchema } from "../../spec/spec-types.generated.js";
import type { ExportFacts } from "../export-facts.js";

export type ChildAnswer =
  | { ok: true; names: string[]; facts: Record<string, ExportFacts> }
  /** The module threw while loading: its error's name and message. */
  | { ok: false; error: { name: string; message: string } };

/** An answer bigger than this is not read: no module needs it, and it would cost memory. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

const MAX_TEXT = 4096;

const text = (v: unknown): string | undefined =>
  typeof v === "string" ? v.slice(0, MAX_TEXT) : undefined;

/** One export's facts as read back from untrusted JSON (a loading process's answer, a lock file). */
export function readFacts(v: unknown): ExportFacts | undefined {
  if (!isObject(v)) return undefined;
  switch (v.kind) {
    case "function":
      return { kind: "function" };
    case "class":
      return { kind: "class", className: text(v.className) ?? "MyTool" };
    case "tool": {
      const description = text(v.description);
      const jsonSchema = isObject(v.jsonSchema) ? (v.jsonSchema as JsonSchema) : undefined;
      return {
        kind: "tool",
        ...(description !== undefined ? { description } : {}),
        ...(jsonSchema !== undefined ? { jsonSchema } : {}),
      };
    }
    case "other":
      return { kind: "other", what: text(v.what) ?? "a value" };
    case "unreadable":
      return { kind: "unreadable", error: text(v.error) ?? "" };
    default:
      return undefined;
  }
}

/** An answer as read back: facts in a Map, so no export name can reach an object's prototype. */
export type ReadAnswer =
  | { ok: true; names: string[]; facts: ReadonlyMap<string, ExportFacts> }
  | Extract<ChildAnswer, { ok: false }>;

/** The answer in `json`, or undefined when it is not one this version of graphspec wrote. */
export function readAnswer(json: string): ReadAnswer | undefined {
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!isObject(v)) return undefined;
  if (v.ok === false) {
    const e = isObject(v.error) ? v.error : {};
    return { ok: false, error: { name: text(e.name) ?? "", message: text(e.message) ?? "" } };
  }
  if (v.ok !== true || !Array.isArray(v.names) || !isObject(v.facts)) return undefined;
  const names = v.names.filter((n): n is string => typeof n === "string");
  const facts = new Map<string, ExportFacts>();
  for (const name of names) {
    const f = Object.hasOwn(v.facts, name) ? readFacts(v.facts[name]) : undefined;
    if (f) facts.set(name, f);
  }
  return { ok: true, names, facts };
}
