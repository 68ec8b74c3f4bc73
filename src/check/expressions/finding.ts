/**
 * What the expression rules report (`Finding`, a diagnostic-to-be) and how types are named in
 * those messages. Both collecting sites (which checks literal values on the way) and checking
 * them produce findings, so this sits below both.
 */
import type { RuleName } from "../../diagnostics/rule-catalog.js";
import type { Suggestion } from "../../diagnostics/suggest.js";
import { type ExprType, formatType } from "../../expr/index.js";
import type { Path, Span } from "../../spec/source-map.js";

/** A diagnostic-to-be, for one of the expression rules. */
export interface Finding {
  rule: RuleName;
  path: Path;
  at?: "key" | "value";
  span?: Span | undefined;
  message: string;
  /** A did-you-mean `Suggestion` also says what replaces the span. */
  hint?: string | Suggestion | undefined;
}

/** "`list<string>` or `string`". */
export function describeType(t: ExprType): string {
  if (t.kind === "union") return t.label ?? t.of.map(describeType).join(" or ");
  return `\`${formatType(t)}\``;
}
