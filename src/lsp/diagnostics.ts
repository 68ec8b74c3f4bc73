/**
 * graphspec's findings as LSP diagnostics: the same rule, message and hint `graphspec validate`
 * prints, at the same range (our positions are 1-based with an exclusive end column; LSP's are
 * 0-based with an exclusive end), the rule as the code, its page as the code's description.
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Diagnostic as LspDiagnostic } from "vscode-languageserver/node";
import { DiagnosticSeverity } from "vscode-languageserver/node";
import type { Diagnostic } from "../diagnostics/diagnostic.js";

/** The rules' pages, shipped in the package (docs/rules/), so an editor opens them offline. */
const RULE_DOCS = fileURLToPath(new URL("../../docs/rules/", import.meta.url));

const SEVERITY = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
} as const;

export function toLspDiagnostic(d: Diagnostic): LspDiagnostic {
  return {
    range: {
      start: { line: Math.max(0, d.line - 1), character: Math.max(0, d.column - 1) },
      end: { line: Math.max(0, d.endLine - 1), character: Math.max(0, d.endColumn - 1) },
    },
    severity: SEVERITY[d.severity as keyof typeof SEVERITY] ?? DiagnosticSeverity.Error,
    code: d.rule,
    codeDescription: { href: pathToFileURL(`${RULE_DOCS}${d.rule}.md`).href },
    source: "graphspec",
    message: d.hint ? `${d.message}\n${d.hint}` : d.message,
  };
}
