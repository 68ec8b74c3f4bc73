/** A finding about a spec file. Positions are 1-based; `end*` is exclusive of nothing: it is the last character's position + 1 column. */
import type { RuleName } from "./rule-catalog.js";
import type { Severity } from "./severity.js";

export type { Severity };

/** Findings of `graphspec test` about its own files, not spec rules: a fixture that cannot be used, a test that failed. */
export type TestFinding = "fixture" | "test";

export interface Diagnostic {
  /** The file as given (relative paths stay relative). */
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** A public rule name from the catalog, e.g. `unknown-node` (or a finding of `graphspec test`). */
  rule: RuleName | TestFinding;
  severity: Severity;
  message: string;
  /** How to fix it, e.g. "did you mean `notify`?". */
  hint?: string;
  /**
   * The hint's suggestion as text that replaces the finding's range (`notify` for "did you mean
   * `notify`?"), for an editor's quick fix (the range of a quoted value takes in its quotes: the
   * editor keeps them around the name). Not printed by the CLI's formats.
   */
  replacement?: string;
}

export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    a.file.localeCompare(b.file) ||
    a.line - b.line ||
    a.column - b.column ||
    a.rule.localeCompare(b.rule) ||
    a.message.localeCompare(b.message)
  );
}
