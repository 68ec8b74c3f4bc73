/**
 * `CheckContext`, what every rule is given: the document and its data, the options of the run,
 * a way to report, and memos for the facts several rules derive (the graph model, the expression
 * sites, ...). Rules and the shared analyses depend on it; it depends on none of them.
 */
import type { Diagnostic, Severity } from "../diagnostics/diagnostic.js";
import { CATALOG, type RuleName } from "../diagnostics/rule-catalog.js";
import type { Suggestion } from "../diagnostics/suggest.js";
import type { ModuleInspector } from "../modules/index.js";
import type { DiagnosticInput, SpecDocument } from "../spec/document.js";
import { diagnosticAtPath, diagnosticAtSpan } from "../spec/document.js";
import type { PathProbes } from "../spec/path-probes.js";
import type { Path, Span } from "../spec/source-map.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";

/** How `validate` may load the modules a spec references, when it is asked to (`loadModules`). */
export interface LoadModulesOptions {
  /** Milliseconds one module may take to load before it is stopped and reported. Default 10,000. */
  timeout?: number;
  /** Environment variables of the loading process besides PATH (none of the caller's by default). */
  env?: Record<string, string>;
}

export interface ValidateOptions {
  /**
   * How the tool, function, router and reducer modules a spec names are checked:
   * - default (`undefined`): parsed, never run: the files exist inside the project and export the
   *   names the spec uses (when that can be known without running them);
   * - `true`, or options: also loaded — each in a separate process with a time limit and no
   *   environment of the caller's — to check what the exports are and tools' argument schemas;
   * - `false`: not read at all; only that the files exist inside the project.
   */
  loadModules?: boolean | LoadModulesOptions;
  /**
   * Read the project's `graphspec.lock.json` (written by `graphspec lock`) when modules are parsed
   * (the default): tools' argument schemas from it, and a finding for a tool module it does not
   * record as it is now. Default true; `false` ignores the file.
   */
  toolLock?: boolean;
  /** Load subgraph specs to check their references and cycles. Default true. */
  loadSubgraphs?: boolean;
  /** Per-rule severity overrides; `off` disables a rule. */
  severity?: Partial<Record<RuleName, Severity | "off">>;
  /** Shared between the files of one run: loaded subgraph documents and modules, by absolute path. */
  cache?: Map<string, unknown>;
  /**
   * Shared between the files of one run: answers about folders and module files (project root,
   * real paths, existence), asked once. Default: asked anew for each file.
   */
  probes?: PathProbes;
}

/** What compile's own check adds: the modules it has loaded itself, so nothing is loaded twice. */
export interface CheckOptions extends ValidateOptions {
  /** Overrides how modules are inspected (compile passes its in-process loader). */
  inspector?: ModuleInspector;
  /**
   * Every finding of a child spec, as compile would check it (validate.ts sets it; the
   * subgraph-errors rule calls it, so check/rules need not import validate.ts).
   */
  checkChild?: (doc: SpecDocument) => Promise<Diagnostic[]>;
}

export interface ReportInput {
  message: string;
  /** How to fix it; a `Suggestion` (did you mean) also carries the text that replaces the range. */
  hint?: string | Suggestion | undefined;
  /** The text that replaces the finding's range, as the hint suggests (`Diagnostic.replacement`). */
  replacement?: string | undefined;
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
  readonly options: CheckOptions;
  readonly diagnostics: Diagnostic[] = [];
  private readonly memos = new Map<string, unknown>();

  constructor(doc: SpecDocument, schemaValid: boolean, options: CheckOptions) {
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
      ...(typeof input.hint === "object"
        ? { hint: input.hint.hint, replacement: input.hint.replacement }
        : { hint: input.hint, replacement: input.replacement }),
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
