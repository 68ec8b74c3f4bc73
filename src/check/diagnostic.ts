/** A finding about a spec file. Positions are 1-based; `end*` is exclusive of nothing: it is the last character's position + 1 column. */
export type Severity = "error" | "warning";

export interface Diagnostic {
  /** The file as given (relative paths stay relative). */
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** A public rule name from the catalog, e.g. `unknown-node`. */
  rule: string;
  severity: Severity;
  message: string;
  /** How to fix it, e.g. "did you mean `notify`?". */
  hint?: string;
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
