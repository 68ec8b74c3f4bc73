/**
 * `CheckContext`, what every rule is given: the document and its data, the options of the run,
 * a way to report, and memos for the facts several rules derive (the graph model, the expression
 * sites, ...). Rules and the shared analyses depend on it; it depends on none of them.
 */
import type { Diagnostic, Severity } from "../diagnostics/diagnostic.js";
import { CATALOG, type RuleName } from "../diagnostics/rule-catalog.js";
import type { DiagnosticInput, SpecDocument } from "../spec/document.js";
import { diagnosticAtPath, diagnosticAtSpan } from "../spec/document.js";
import type { Path, Span } from "../spec/source-map.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";

export interface ValidateOptions {
  /**
   * Load tool, function and router modules to check exports and tool argument schemas.
   * Default true; modules are only loaded when the spec references them.
   */
  loadModules?: boolean;
  /** Load subgraph specs to check their references and cycles. Default true. */
  loadSubgraphs?: boolean;
  /** Per-rule severity overrides; `off` disables a rule. */
  severity?: Partial<Record<RuleName, Severity | "off">>;
  /** Shared between the files of one run: loaded subgraph documents and modules, by absolute path. */
  cache?: Map<string, unknown>;
}

export interface ReportInput {
  message: string;
  hint?: string | undefined;
  /** Report at the path's key (`name:`) rather than its value. */
  at?: "key" | "value";
  /** An exact span in the file, overriding the path's. */
  span?: Span | undefined;
  /** Overrides the rule's default severity (before user overrides). */
  severity?: Severity;
}

/** What a rule sees: the document, its data, shared derived facts, and a way to report. */
export class CheckContext {
  readonly doc: SpecDocument;
  /** The spec data. Only schema-valid when `schemaValid`; rules must tolerate partial shapes otherwise. */
  readonly spec: GraphSpec;
  readonly schemaValid: boolean;
  readonly options: ValidateOptions;
  readonly diagnostics: Diagnostic[] = [];
  private readonly memos = new Map<string, unknown>();

  constructor(doc: SpecDocument, schemaValid: boolean, options: ValidateOptions) {
    this.doc = doc;
    this.spec = (doc.data ?? {}) as GraphSpec;
    this.schemaValid = schemaValid;
    this.options = options;
  }

  report(rule: RuleName, path: Path, input: ReportInput): void {
    const d: DiagnosticInput = {
      rule,
      severity: input.severity ?? CATALOG[rule].severity,
      message: input.message,
      hint: input.hint,
    };
    this.diagnostics.push(
      input.span
        ? diagnosticAtSpan(this.doc, input.span, d)
        : diagnosticAtPath(this.doc, path, d, input.at),
    );
  }

  /** Computes a derived fact once per document (the graph model, the expression sites, ...). */
  memo<T>(key: string, compute: () => T): T {
    if (!this.memos.has(key)) this.memos.set(key, compute());
    return this.memos.get(key) as T;
  }

  /** A cache shared across the documents of one validation run. */
  shared<T>(key: string, compute: () => T): T {
    const cache = this.options.cache ?? this.memos;
    if (!cache.has(key)) cache.set(key, compute());
    return cache.get(key) as T;
  }
}
