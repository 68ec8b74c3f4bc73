/**
 * Telling a graphspec spec from any other YAML or JSON file, so that a file that is not one is never
 * quoted: `graphspec validate` may be pointed (by a glob, a link, a pull request) at a credentials
 * file, and its schema errors and source lines would print what is in it.
 */
import type { SpecDocument } from "./document.js";

/** A spec's top-level keys (schema/graph.schema.json `properties`; test/security holds them equal). */
export const SPEC_KEYS = [
  "$schema",
  "version",
  "name",
  "description",
  "state",
  "context",
  "input",
  "output",
  "models",
  "mcp_servers",
  "tools",
  "nodes",
  "edges",
  "interrupts",
  "limits",
  "catalog",
] as const;

const escapeRegExp = (s: string) => s.replace(/[$]/g, "\\$&");
const KEY_ALTERNATIVES = SPEC_KEYS.map(escapeRegExp).join("|");
/** A top-level YAML key of a spec, at the start of a line. */
const YAML_SPEC_KEY = new RegExp(`^["']?(?:${KEY_ALTERNATIVES})["']?[ \\t]*:`, "m");
/** A spec key anywhere in JSON text. */
const JSON_SPEC_KEY = new RegExp(`"(?:${KEY_ALTERNATIVES})"\\s*:`);

/**
 * Why the document is not a graphspec spec, or undefined when it is one (or could be: a spec
 * broken enough not to parse still has a spec key at the start of a line). A blank file is left to
 * the usual diagnostics: there is nothing in it to show.
 */
export function notASpec(doc: SpecDocument): string | undefined {
  if (doc.text.trim() === "" && doc.data === undefined) return undefined;
  const data = doc.data;
  if (data === undefined) {
    const looksLikeOne = (doc.format === "json" ? JSON_SPEC_KEY : YAML_SPEC_KEY).test(doc.text);
    return looksLikeOne
      ? undefined
      : `it does not parse as ${doc.format === "json" ? "JSON" : "YAML"}, and nothing in it looks like a spec`;
  }
  if (data === null) return doc.text.trim() === "" ? undefined : "it holds no data";
  if (Array.isArray(data)) return "it is a list, not a mapping";
  if (typeof data !== "object")
    return `it is ${typeof data === "string" ? "text" : `a ${typeof data}`}, not a mapping`;
  const keys = Object.keys(data);
  if (keys.some((k) => (SPEC_KEYS as readonly string[]).includes(k))) return undefined;
  return "it has none of a spec's top-level keys (`version`, `name`, `state`, `nodes`, `edges`, …)";
}
