import type { Diagnostic, Severity, TestFinding } from "../diagnostics/diagnostic.js";
import type { RuleName } from "../diagnostics/rule-catalog.js";
import type { Path, SourceMap, Span } from "./source-map.js";
import type { Suppressions } from "./suppressions.js";

/** A loaded spec file: its data, where each part of it stands in the text, and what went wrong loading it. */
export interface SpecDocument {
  /** The path as the caller gave it; diagnostics print this. */
  file: string;
  /** Absolute path of the file (or of a virtual file for specs given as text). */
  path: string;
  /** The project root: module and graph references may not leave it (`path-escape`). */
  root: string;
  format: "yaml" | "json";
  text: string;
  /** The parsed data; `undefined` when the file could not be parsed at all. */
  data: unknown;
  map: SourceMap;
  /** Diagnostics found while loading (syntax, encoding, duplicate keys, limits). */
  problems: Diagnostic[];
  suppressions: Suppressions;
}

export interface DiagnosticInput {
  rule: RuleName | TestFinding;
  severity: Severity;
  message: string;
  hint?: string | undefined;
}

export function diagnosticAtSpan(doc: SpecDocument, span: Span, d: DiagnosticInput): Diagnostic {
  const loc = doc.map.locate(span);
  const out: Diagnostic = {
    file: doc.file,
    ...loc,
    rule: d.rule,
    severity: d.severity,
    message: d.message,
  };
  if (d.hint) out.hint = d.hint;
  return out;
}

export function diagnosticAtPath(
  doc: SpecDocument,
  path: Path,
  d: DiagnosticInput,
  at: "key" | "value" = "value",
): Diagnostic {
  return diagnosticAtSpan(doc, doc.map.span(path, at), d);
}
