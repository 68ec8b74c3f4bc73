import { styleText } from "node:util";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";

type Paint = (style: Parameters<typeof styleText>[0], text: string) => string;

/**
 * rustc-style output: the location and message, then the source line with a caret under the span.
 *
 *   graphs/triage.yaml:12:9: error: unknown node `notfy` [unknown-node]
 *      |
 *   12 |     to: notfy
 *      |         ^^^^^ did you mean `notify`?
 */
export function formatPretty(
  diagnostics: readonly Diagnostic[],
  sources: ReadonlyMap<string, string>,
  color: boolean,
): string {
  const paint: Paint = color ? (s, t) => styleText(s, t) : (_s, t) => t;
  const out: string[] = [];
  for (const d of diagnostics) {
    const sev =
      d.severity === "error"
        ? paint(["bold", "red"], "error")
        : paint(["bold", "yellow"], "warning");
    out.push(
      `${paint("bold", `${d.file}:${d.line}:${d.column}`)}: ${sev}: ${d.message} ${paint("gray", `[${d.rule}]`)}`,
    );
    const lines = sources.get(d.file)?.split(/\r?\n/);
    const line = lines?.[d.line - 1];
    if (line === undefined) {
      if (d.hint) out.push(`  ${paint("cyan", "hint:")} ${d.hint}`);
      continue;
    }
    const gutter = String(d.line).length;
    const pad = " ".repeat(gutter);
    const shown = line.replaceAll("\t", " ");
    const width =
      d.endLine === d.line
        ? Math.max(1, d.endColumn - d.column)
        : Math.max(1, shown.length - d.column + 1);
    const caret = paint(
      d.severity === "error" ? "red" : "yellow",
      "^".repeat(Math.min(width, Math.max(1, shown.length - d.column + 1))),
    );
    out.push(`${pad} ${paint("gray", "|")}`);
    out.push(`${paint("gray", `${d.line} |`)} ${shown}`);
    out.push(
      `${pad} ${paint("gray", "|")} ${" ".repeat(Math.max(0, d.column - 1))}${caret}${d.hint ? ` ${paint("cyan", d.hint)}` : ""}`,
    );
  }
  return out.join("\n");
}

export function summaryLine(
  diagnostics: readonly Diagnostic[],
  fileCount: number,
  color: boolean,
): string {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  const files = `${fileCount} file${fileCount === 1 ? "" : "s"}`;
  if (!diagnostics.length)
    return color ? styleText("green", `✔ ${files} valid`) : `✔ ${files} valid`;
  const text = `✖ ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"} in ${files}`;
  return color ? styleText(errors ? "red" : "yellow", text) : text;
}
