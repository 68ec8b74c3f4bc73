import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { showControls } from "./control-chars.js";

/**
 * GitHub Actions workflow commands: each diagnostic becomes an annotation on the pull request.
 * Text from the spec cannot start a command of its own: GitHub's own escaping applies (`%`, CR, LF;
 * and `:` and `,` in properties), and every other control character becomes a visible escape.
 */
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

// https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts escaping rules, which
// GitHub decodes (a file name keeps its real characters); then every other control character as
// a visible escape, which cannot end the line either.
const escapeData = (s: string) =>
  showControls(s.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A"));
const escapeProperty = (s: string) => escapeData(s).replaceAll(":", "%3A").replaceAll(",", "%2C");
