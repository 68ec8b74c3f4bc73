import type { Diagnostic } from "../../diagnostics/diagnostic.js";

/** GitHub Actions workflow commands: each diagnostic becomes an annotation on the pull request. */
export function formatGithub(diagnostics: readonly Diagnostic[]): string {
  return diagnostics
    .map((d) => {
      const props = [
        `file=${escapeProperty(d.file)}`,
        `line=${d.line}`,
        `col=${d.column}`,
        `endLine=${d.endLine}`,
        `endColumn=${d.endColumn}`,
        `title=${escapeProperty(`graphspec ${d.rule}`)}`,
      ].join(",");
      const text = d.hint ? `${d.message} (${d.hint})` : d.message;
      return `::${d.severity === "error" ? "error" : "warning"} ${props}::${escapeData(text)}`;
    })
    .join("\n");
}

// https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts escaping rules
const escapeData = (s: string) =>
  s.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
const escapeProperty = (s: string) => escapeData(s).replaceAll(":", "%3A").replaceAll(",", "%2C");
