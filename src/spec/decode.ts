import type { DiagnosticInput } from "./document.js";

export type Decoded = { text: string } | { error: DiagnosticInput; line: number; column: number };

/** One decoder for every file: `decode` without `stream` keeps no state between calls. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Bytes to text: UTF-8 (a BOM is dropped later), or UTF-16 LE/BE when the file starts with
 * that BOM (editors on Windows still write it). Anything else is an `encoding` error located
 * at the offending byte (line, and column in bytes: the text has no characters to count there).
 */

export function decode(bytes: Uint8Array): Decoded {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder("utf-16le").decode(bytes.subarray(2)) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder("utf-16be").decode(bytes.subarray(2)) };
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    return failAt(bytes, nul, {
      rule: "encoding",
      severity: "error",
      message: "the file contains NUL bytes: it looks binary, not a YAML or JSON text",
      hint: "check that the path names a spec file",
    });
  }
  try {
    return { text: UTF8.decode(bytes) };
  } catch {
    const at = firstInvalidUtf8(bytes);
    return failAt(bytes, at, {
      rule: "encoding",
      severity: "error",
      message: `the file is not valid UTF-8 (byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, "0")} at offset ${at})`,
      hint: "save the file as UTF-8",
    });
  }
}

/**
 * The offset of the first byte that is not part of a well-formed UTF-8 sequence
 * (Unicode Table 3-7). Only called once TextDecoder has said there is one.
 */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const len =
      b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len === 0) return i;
    // The second byte's range is narrower after E0, ED, F0 and F4 (no overlongs, surrogates, > U+10FFFF).
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k < len; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += len;
  }
  return i;
}

function failAt(bytes: Uint8Array, offset: number, error: DiagnosticInput): Decoded {
  let line = 1;
  let lineStart = 0;
  for (let i = bytes.indexOf(0x0a); i >= 0 && i < offset; i = bytes.indexOf(0x0a, i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { error, line, column: offset - lineStart + 1 };
}
