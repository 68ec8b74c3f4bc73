/**
 * The LSP tests' side of a WorkspaceEdit and of locations: applying text edits to a text, as an
 * editor does, and reading the text a range covers.
 */
import type { Range, TextEdit } from "vscode-languageserver-protocol/node";

/** The offset of a 0-based line and character in `text`. */
export function offsetOf(text: string, at: { line: number; character: number }): number {
  let offset = 0;
  for (let line = 0; line < at.line; line++) offset = text.indexOf("\n", offset) + 1;
  return offset + at.character;
}

/** The text `range` covers. */
export const textIn = (text: string, range: Range): string =>
  text.slice(offsetOf(text, range.start), offsetOf(text, range.end));

/** `text` with `edits` applied (they may not overlap; any order). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = edits
    .map((e) => ({ start: offsetOf(text, e.range.start), end: offsetOf(text, e.range.end), e }))
    .sort((a, b) => b.start - a.start);
  let out = text;
  for (const { start, end, e } of sorted) out = out.slice(0, start) + e.newText + out.slice(end);
  return out;
}

/** The 0-based position of offset `offset` in `text`. */
export function positionOf(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length - 1, character: before.at(-1)!.length };
}
