/**
 * Text from a spec (keys, values, file names) reaches terminals and CI logs through diagnostics. A
 * control character there is an instruction: `\e]…` rewrites a terminal's title or links, `\r`
 * overwrites a line, `\n::add-mask::…` is a GitHub Actions workflow command. Every format shows them
 * as visible escapes instead.
 */

/** C0 controls, DEL, C1 controls, line and paragraph separators, and bidirectional overrides. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
/** The same, minus what JSON.stringify already escapes (below U+0020). */
const CONTROL_AFTER_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\u001b": "\\e" };

const hex = (c: string, width: number) => c.codePointAt(0)!.toString(16).padStart(width, "0");

/** `text` with every control character written as a visible escape (`\n`, `\e`, `\x07`, `\u{202e}`). */
export const showControls = (text: string): string =>
  text.replace(
    CONTROL,
    (c) => NAMED[c] ?? (c <= "\u00ff" ? `\\x${hex(c, 2)}` : `\\u{${hex(c, 4)}}`),
  );

/** JSON text with the control characters JSON.stringify leaves raw escaped too (still the same JSON value). */
export const escapeJsonControls = (json: string): string =>
  json.replace(CONTROL_AFTER_JSON, (c) => `\\u${hex(c, 4)}`);
