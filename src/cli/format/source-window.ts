import { showControls } from "./control-chars.js";

/** A line up to this long is quoted whole, as hand-written YAML lines are. */
export const WHOLE_LINE = 160;
/** Characters of a longer line quoted either side of a finding's span. */
export const WINDOW_CONTEXT = 60;
/** At most this much of a long span is quoted (and underlined). */
export const WINDOW_SPAN = 80;

export interface SourceWindow {
  /** The quoted part of the line, control characters escaped, `…` where it was cut. */
  text: string;
  /** How many characters of `text` come before the span: where the caret starts. */
  before: number;
  /** How many carets: the span's shown length, at least 1, never past `text`'s end. */
  carets: number;
}

/**
 * A bounded window of a source line around a finding, so that what is printed per finding does not
 * grow with the line: a one-line 750 KB JSON spec with a thousand findings would otherwise be
 * quoted a thousand times whole. `column`/`end` are 1-based UTF-16 columns as findings count them
 * (`end` exclusive); the cuts never split a surrogate pair.
 */
export function sourceWindow(line: string, column: number, end: number): SourceWindow {
  const raw = line.replaceAll("\t", " ");
  const start = Math.min(Math.max(0, column - 1), raw.length);
  const whole = raw.length <= WHOLE_LINE;
  const stop = Math.min(
    Math.max(start, end - 1),
    raw.length,
    whole ? raw.length : start + WINDOW_SPAN,
  );
  let from = whole ? 0 : Math.max(0, start - WINDOW_CONTEXT);
  let to = whole ? raw.length : Math.min(raw.length, Math.max(stop, start + 1) + WINDOW_CONTEXT);
  if (from > 0 && isLowSurrogate(raw.charCodeAt(from))) from -= 1;
  if (to < raw.length && isLowSurrogate(raw.charCodeAt(to))) to += 1;
  const head = from > 0 ? "…" : "";
  const tail = to < raw.length ? "…" : "";
  const body = showControls(raw.slice(from, to));
  // Columns count characters of the raw line; the caret goes under their escaped form.
  const before = head.length + showControls(raw.slice(from, start)).length;
  const spanned = showControls(raw.slice(start, stop)).length;
  const text = `${head}${body}${tail}`;
  const room = head.length + body.length - before;
  return { text, before, carets: Math.min(Math.max(1, spanned), Math.max(1, room)) };
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
