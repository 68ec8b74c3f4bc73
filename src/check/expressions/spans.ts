/**
 * Source offsets for findings about a whole `${{ expr }}` template: the offsets of `expr` without
 * its padding. Turning offsets into a file span is `spanInScalar` (spec/scalar-spans.ts); this
 * part needs the parsed template from expr/, which spec/ may not import, so it stays in check/.
 */
import type { ParsedTemplate } from "../../expr/index.js";
import type { Span } from "../../spec/source-map.js";

/** For `${{ expr }}`, the span of `expr` itself (without the padding). */
export function wholeExpressionSpan(
  template: ParsedTemplate | undefined,
  locate: (start: number, end: number) => Span | undefined,
): Span | undefined {
  const part = template?.whole ? template.parts[0] : undefined;
  if (part?.kind !== "expr") return undefined;
  const lead = part.source.length - part.source.trimStart().length;
  const trail = part.source.length - part.source.trimEnd().length;
  return locate(part.start + lead, part.end - trail);
}
