import { resolve } from "node:path";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { showControls } from "./control-chars.js";
import { workingPath } from "./working-path.js";

/**
 * GitHub Actions workflow commands: each diagnostic becomes an annotation on the pull request, its
 * file named relative to the working directory (run from the repository root).
 * Text from the spec cannot start a command of its own: GitHub's own escaping applies (`%`, CR, LF;
 * and `:` and `,` in properties), and every other control character becomes a visible escape.
 */
export function formatGithub(diagnostics: readonly Diagnostic[], cwd: string): string {
  return diagnostics
    .map((d) => {
      // The runner reads a relative `file` against the repository root (and makes an absolute one
      // inside it relative): `./graphs/a.yaml` would match no file of the diff; `graphs/a.yaml` does.
      const file = workingPath(d.file, cwd) ?? resolve(cwd, d.file);
      const props = [
        `file=${escapeProperty(file)}`,
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
