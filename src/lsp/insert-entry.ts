/**
 * Text edits that add an entry to a YAML or JSON collection as it is written: a block collection
 * gets a new line at its entries' indentation, a flow one (and JSON) the entry after its last,
 * so a quick fix keeps the file's layout instead of re-printing it.
 */
import type { SpecDocument } from "../spec/document.js";
import type { Path, Span } from "../spec/source-map.js";

/** An insertion at an offset of the spec's text. */
export interface Insertion {
  offset: number;
  text: string;
}

/** The offset of the end of the line `offset` is on (before its newline), past trailing spaces of a span. */
function lineEnd(text: string, offset: number): number {
  // A block collection's span may end at the start of the next line.
  const at = offset > 0 && text[offset - 1] === "\n" ? offset - 1 : offset;
  const end = text.indexOf("\n", at);
  return end === -1 ? text.length : end;
}

/** What precedes `offset` on its line. */
function linePrefix(text: string, offset: number): string {
  return text.slice(text.lastIndexOf("\n", offset - 1) + 1, offset);
}

/**
 * Adds an item to the sequence at `path`: `block` is the item as a block-sequence line's content
 * (`{ default: END }`), `flow` as a flow-sequence or JSON item.
 */
export function appendItem(
  doc: SpecDocument,
  path: Path,
  count: number,
  item: { block: string; flow: string },
): Insertion | undefined {
  if (count === 0 || !doc.map.has([...path, count - 1])) return undefined;
  const text = doc.text;
  const whole = doc.map.span(path);
  const last = doc.map.span([...path, count - 1]);
  if (doc.format === "json" || text[whole[0]] === "[")
    return { offset: last[1], text: `, ${item.flow}` };
  const first = doc.map.span([...path, 0]);
  const prefix = linePrefix(text, first[0]);
  const dash = prefix.lastIndexOf("-");
  if (dash === -1) return undefined;
  return { offset: lineEnd(text, last[1]), text: `\n${prefix.slice(0, dash)}- ${item.block}` };
}

/** Adds `key: value` to the mapping at `path`; `value` is given as YAML flow text and as JSON. */
export function addEntry(
  doc: SpecDocument,
  path: Path,
  key: string,
  value: { yaml: string; json: string },
): Insertion | undefined {
  const text = doc.text;
  const json = doc.format === "json";
  const entry = json ? `${JSON.stringify(key)}: ${value.json}` : `${key}: ${value.yaml}`;
  const map = path.reduce<unknown>(
    (at, k) => (at && typeof at === "object" ? (at as Record<string, unknown>)[k] : undefined),
    doc.data,
  );
  if (!map || typeof map !== "object" || Array.isArray(map) || !doc.map.has(path)) return undefined;
  const keys = Object.keys(map);
  const whole: Span = doc.map.span(path);
  // An empty mapping is the schema's to report (`state` must not be empty).
  if (!keys.length) return undefined;
  const last = doc.map.span([...path, keys.at(-1)!]);
  if (json || text[whole[0]] === "{") return { offset: last[1], text: `, ${entry}` };
  const firstKey = doc.map.span([...path, keys[0]!], "key");
  const indent = linePrefix(text, firstKey[0]);
  if (indent.trim()) return undefined;
  return { offset: lineEnd(text, last[1]), text: `\n${indent}${entry}` };
}
