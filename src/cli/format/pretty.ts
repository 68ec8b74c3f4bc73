import { styleText } from "node:util";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { showControls } from "./control-chars.js";

type Paint = (style: Parameters<typeof styleText>[0], text: string) => string;

/**
 * rustc-style output: the location and message, then the source line with a caret under the span.
 *
 *   graphs/triage.yaml:12:9: error: unknown node `notfy` [unknown-node]
 *      |
 *   12 |     to: notfy
 *      |         ^^^^^ did you mean `notify`?
 *
 * Control characters in file names, messages, hints and source lines are shown as escapes
 * (control-chars.ts); the caret stays under the span they shift.
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
    const hint = d.hint === undefined ? undefined : showControls(d.hint);
    out.push(
      `${paint("bold", `${showControls(d.file)}:${d.line}:${d.column}`)}: ${sev}: ${showControls(d.message)} ${paint("gray", `[${d.rule}]`)}`,
    );
    const lines = sources.get(d.file)?.split(/\r?\n/);
    const line = lines?.[d.line - 1];
    if (line === undefined) {
      if (hint) out.push(`  ${paint("cyan", "hint:")} ${hint}`);
      continue;
    }
    const gutter = String(d.line).length;
    const pad = " ".repeat(gutter);
    const raw = line.replaceAll("\t", " ");
    // Columns count characters of the raw line; the caret goes under their escaped form.
    const before = showControls(raw.slice(0, Math.max(0, d.column - 1))).length;
    const end = d.endLine === d.line ? d.endColumn - 1 : raw.length;
    const spanned = showControls(raw.slice(Math.max(0, d.column - 1), Math.max(0, end))).length;
    const shown = showControls(raw);
    const caret = paint(
      d.severity === "error" ? "red" : "yellow",
      "^".repeat(Math.min(Math.max(1, spanned), Math.max(1, shown.length - before))),
    );
    out.push(`${pad} ${paint("gray", "|")}`);
    out.push(`${paint("gray", `${d.line} |`)} ${shown}`);
    out.push(
      `${pad} ${paint("gray", "|")} ${" ".repeat(before)}${caret}${hint ? ` ${paint("cyan", hint)}` : ""}`,
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
