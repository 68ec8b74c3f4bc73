/**
 * Templates: strings with `${{ expr }}` in them.
 *
 * - A string that is exactly one `${{ expr }}` (whitespace inside the braces allowed, none
 *   outside) takes the expression's typed value.
 * - Otherwise each `${{ expr }}` is replaced by its value as text (see `renderText`).
 * - `$${{` stands for a literal `${{`. A string without `${{` is a literal.
 *
 * The closing `}}` is found outside CEL string literals and outside `{ }` the expression
 * opens itself, so `${{ {"a": {"b": 1}} }}` and `${{ "}}" }}` work.
 */
import { ExprSyntaxError } from "./expr-error.js";

export interface TextPart {
  kind: "text";
  /** The text after unescaping `$${{`. */
  text: string;
  /** Offsets in the template: [start, end). */
  start: number;
  end: number;
}

export interface ExprPart {
  kind: "expr";
  /** The CEL between `${{` and `}}`, whitespace included, so its offsets map directly. */
  source: string;
  /** Offsets of `source` in the template. */
  start: number;
  end: number;
  /** Offsets of `${{` and of the end of `}}` in the template. */
  open: number;
  close: number;
}

export type TemplatePart = TextPart | ExprPart;

export interface ParsedTemplate {
  text: string;
  parts: TemplatePart[];
  /** Exactly one `${{ expr }}` and nothing else: the template's value is the expression's. */
  whole: boolean;
}

const OPEN = "${{";

/** Whether the string contains `${{` and so is not a plain literal. */
export const isTemplate = (text: string): boolean => text.includes(OPEN);

/** Splits a template into text and expression parts. Throws ExprSyntaxError on an unterminated `${{`. */
export function parseTemplate(text: string): ParsedTemplate {
  const parts: TemplatePart[] = [];
  let buf = "";
  let bufStart = 0;
  let i = 0;
  const flush = (end: number) => {
    if (buf) parts.push({ kind: "text", text: buf, start: bufStart, end });
    buf = "";
  };
  while (i < text.length) {
    // Text runs up to the next `${{`, taken whole rather than a character at a time.
    const next = text.indexOf(OPEN, i);
    if (next < 0) {
      buf += text.slice(i);
      break;
    }
    if (next > i && text[next - 1] === "$") {
      // `$${{`: a literal `${{`.
      buf += text.slice(i, next - 1) + OPEN;
      i = next + OPEN.length;
      continue;
    }
    buf += text.slice(i, next);
    i = next;
    flush(i);
    const start = i + OPEN.length;
    const close = findClose(text, start);
    if (close === undefined) {
      throw new ExprSyntaxError("`${{` is not closed", text, {
        start: i,
        end: start,
        hint: "end the expression with `}}`, or write `$${{` for a literal `${{`",
      });
    }
    parts.push({
      kind: "expr",
      source: text.slice(start, close),
      start,
      end: close,
      open: i,
      close: close + 2,
    });
    i = close + 2;
    bufStart = i;
  }
  flush(text.length);
  const whole = parts.length === 1 && parts[0]!.kind === "expr";
  return { text, parts, whole };
}

/** The offset of the `}}` that closes an expression starting at `from`, or undefined. */
function findClose(text: string, from: number): number | undefined {
  const aware = scanClose(text, from);
  if (aware !== "unterminated-string") return aware;
  // An unterminated string literal: close at the first `}}` and let CEL report the string.
  const naive = text.indexOf("}}", from);
  return naive < 0 ? undefined : naive;
}

function scanClose(text: string, from: number): number | undefined | "unterminated-string" {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const end = skipString(text, i);
      if (end === undefined) return "unterminated-string";
      i = end - 1;
    } else if (c === "{") depth++;
    else if (c === "}") {
      if (depth === 0 && text[i + 1] === "}") return i;
      if (depth > 0) depth--;
    }
  }
  return undefined;
}

/** The offset just after the CEL string literal whose quote is at `i`, or undefined if unterminated. */
function skipString(text: string, i: number): number | undefined {
  const quote = text[i]!;
  const raw = /[rR]/.test(text[i - 1] ?? "") && !/[\w]/.test(text[i - 2] ?? "");
  const triple = text.startsWith(quote.repeat(3), i);
  const delim = triple ? quote.repeat(3) : quote;
  for (let j = i + delim.length; j < text.length; j++) {
    if (!raw && text[j] === "\\") {
      j++;
      continue;
    }
    if (!triple && text[j] === "\n") return undefined;
    if (text.startsWith(delim, j)) return j + delim.length;
  }
  return undefined;
}

/**
 * A value as interpolated into text: strings as they are, numbers and booleans as JSON writes
 * them, null as the empty string, lists and maps as JSON.
 */
export function renderText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  return JSON.stringify(value) ?? "";
}
