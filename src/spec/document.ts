import type { Diagnostic, Severity, TestFinding } from "../diagnostics/diagnostic.js";
import type { RuleName } from "../diagnostics/rule-catalog.js";
import { type Location, type Path, pointerOf, type SourceMap, type Span } from "./source-map.js";
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
  /**
   * The prompts read from their own files (`system: { file: prompts/triage.md }`), whose text
   * stands in `data` in place of `{ file }`. Undefined when no file was read for this document
   * (it was given as text): then a `{ file }` prompt stays in `data`, unread (`prompt-file`).
   */
  prompts?: PromptFile[];
}

/** A prompt in its own file: its text is the template, checked and reported in that file. */
export interface PromptFile {
  /** The prompt's data path, e.g. `["nodes", "triage", "system"]`. */
  path: Path;
  /** The path as written in the spec (`file:`), relative to the spec's folder. */
  ref: string;
  /** Absolute path of the file. */
  abs: string;
  /** The path diagnostics print: the spec's as given, joined with `ref`. */
  file: string;
  text: string;
  /** Positions in `text` (a source map of the text alone: no keys). */
  map: SourceMap;
  /**
   * Spans from here to `base + text.length` are in this file: offsets past the spec's source
   * map (and its catalog's), so a finding's span says which file it is in.
   */
  base: number;
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
  /** Text that replaces the finding's range, as the hint suggests (`Diagnostic.replacement`). */
  replacement?: string | undefined;
}

/** The prompt files a document read, as [file as printed, text]: for quoting findings in them. */
export function promptSources(doc: SpecDocument): [file: string, text: string][] {
  return (doc.prompts ?? []).map((p) => [p.file, p.text]);
}

/** The prompt file a span is in (`PromptFile.base`); undefined for the spec's own text. */
const promptOfSpan = (doc: SpecDocument, span: Span): PromptFile | undefined =>
  doc.prompts?.find((p) => span[0] >= p.base && span[0] <= p.base + p.text.length);

/** The prompt read from a file for the prompt at `path`; undefined for an inline one. */
export function promptFileAt(doc: SpecDocument, path: Path): PromptFile | undefined {
  if (!doc.prompts?.length) return undefined;
  const pointer = pointerOf(path);
  return doc.prompts.find((p) => pointerOf(p.path) === pointer);
}

/** The file and position of a span: the spec's, its catalog's or a prompt file's. */
export function locateSpan(doc: SpecDocument, span: Span): Location & { file: string } {
  const prompt = promptOfSpan(doc, span);
  if (prompt) {
    const shifted: Span = [span[0] - prompt.base, span[1] - prompt.base];
    return { file: prompt.file, ...prompt.map.locate(shifted) };
  }
  const catalog = doc.catalog;
  if (catalog && span[0] >= catalog.base) {
    // An entry the spec took from its catalog: where it is written.
    return locateSpan(catalog.doc, [span[0] - catalog.base, span[1] - catalog.base]);
  }
  return { file: doc.file, ...doc.map.locate(span) };
}

export function diagnosticAtSpan(doc: SpecDocument, span: Span, d: DiagnosticInput): Diagnostic {
  const out: Diagnostic = {
    ...locateSpan(doc, span),
    rule: d.rule,
    severity: d.severity,
    message: d.message,
  };
  if (d.hint) out.hint = d.hint;
  if (d.replacement !== undefined) out.replacement = d.replacement;
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
