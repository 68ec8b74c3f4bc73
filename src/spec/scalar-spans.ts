/** Where a piece of a string value stands in the file: for diagnostics that point inside a scalar (an expression in a template). */
import { promptFileAt, type SpecDocument } from "./document.js";
import type { Path, Span } from "./source-map.js";

/**
 * The file span of [start, end) inside the string value at `path`. Exact for plain and
 * one-line quoted scalars (escapes decoded). Otherwise (block and folded scalars) found through
 * an anchor that stands verbatim in the file: the line holding `start`, or one of `anchors`
 * (e.g. the whole `${{ }}`). Undefined when neither works: the caller uses the whole value.
 */
export function spanInScalar(
  doc: SpecDocument,
  path: Path,
  value: string,
  start: number,
  end: number,
  anchors: readonly (readonly [number, number])[] = [],
): Span | undefined {
  // A prompt read from its own file: the value is the file's text, offset for offset.
  const prompt = promptFileAt(doc, path);
  if (prompt) return [prompt.base + start, prompt.base + Math.max(end, start)];
  if (!doc.map.has(path)) return undefined;
  const outer = doc.map.span(path, "value");
  // The map's text: a spec's own, followed by its catalog's (source-map.ts `withGraft`).
  const raw = doc.map.text.slice(outer[0], outer[1]);
  const stop = Math.max(end, start);
  const offsets = scalarOffsets(raw, value);
  if (offsets) return [outer[0] + offsets[start]!, outer[0] + offsets[stop]!];
  const nl = value.indexOf("\n", start);
  const line: [number, number] = [
    value.lastIndexOf("\n", start - 1) + 1,
    nl < 0 ? value.length : nl,
  ];
  for (const [from, to] of [line, ...anchors]) {
    if (start < from || start > to) continue;
    const text = value.slice(from, to);
    if (!text.trim()) continue;
    // The anchor's n-th occurrence in the value is its n-th occurrence in the file.
    let nth = 0;
    for (let i = value.indexOf(text); i >= 0 && i < from; i = value.indexOf(text, i + 1)) nth++;
    let at = raw.indexOf(text);
    for (let k = 0; k < nth && at >= 0; k++) at = raw.indexOf(text, at + 1);
    if (at < 0) continue;
    const base = outer[0] + at - from;
    return [base + start, base + Math.min(stop, to)];
  }
  return undefined;
}

/** For each character of `value` (and its end), its offset in `raw`; undefined unless certain. */
function scalarOffsets(raw: string, value: string): number[] | undefined {
  if (raw.includes("\n")) return undefined;
  const quote = raw[0];
  if (quote !== '"' && quote !== "'") {
    return raw === value ? Array.from({ length: value.length + 1 }, (_, i) => i) : undefined;
  }
  if (raw.at(-1) !== quote || raw.length < 2) return undefined;
  const offsets: number[] = [];
  let decoded = "";
  for (let i = 1; i < raw.length - 1; ) {
    const c = raw[i]!;
    let text = c;
    let width = 1;
    if (quote === "'" && c === "'") {
      width = 2; // '' stands for '
    } else if (quote === '"' && c === "\\") {
      const esc = decodeEscape(raw, i);
      if (!esc) return undefined;
      [text, width] = esc;
    }
    for (let k = 0; k < text.length; k++) offsets.push(i);
    decoded += text;
    i += width;
  }
  offsets.push(raw.length - 1);
  return decoded === value ? offsets : undefined;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\x85",
  _: "\xa0",
  L: "\u2028",
  P: "\u2029",
};
const HEX_ESCAPES: Record<string, number> = { x: 2, u: 4, U: 8 };

/** A YAML/JSON double-quoted escape at `i`: its text and its width in the raw source. */
function decodeEscape(raw: string, i: number): [string, number] | undefined {
  const kind = raw[i + 1] ?? "";
  const simple = SIMPLE_ESCAPES[kind];
  if (simple !== undefined) return [simple, 2];
  const digits = HEX_ESCAPES[kind];
  if (!digits) return undefined;
  const hex = raw.slice(i + 2, i + 2 + digits);
  if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) return undefined;
  return [String.fromCodePoint(Number.parseInt(hex, 16)), 2 + digits];
}
