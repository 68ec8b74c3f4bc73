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
  /** The project catalog the spec names (`catalog:`), whose tools and models it takes as its own. */
  catalog?: SpecCatalog;
}

/** A spec's catalog: the file, and which of its entries the spec took. */
export interface SpecCatalog {
  /** The catalog file as loaded: its own text, source map and file name. */
  doc: SpecDocument;
  /**
   * The spec's source map holds the catalog's entries shifted by this offset (past the spec's
   * text), so a span at or past it is in the catalog file.
   */
  base: number;
  /** The entries the spec took from it (an entry of the spec's own, by the same name, wins). */
  tools: string[];
  models: string[];
}

export interface DiagnosticInput {
  rule: RuleName | TestFinding;
  severity: Severity;
  message: string;
  hint?: string | undefined;
}

export function diagnosticAtSpan(doc: SpecDocument, span: Span, d: DiagnosticInput): Diagnostic {
  const catalog = doc.catalog;
  if (catalog && span[0] >= catalog.base) {
    // An entry the spec took from its catalog: reported where it is written.
    return diagnosticAtSpan(catalog.doc, [span[0] - catalog.base, span[1] - catalog.base], d);
  }
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
