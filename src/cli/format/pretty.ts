import { styleText } from "node:util";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { showControls } from "./control-chars.js";
import { sourceWindow } from "./source-window.js";

/** Findings of one rule in one file printed in full; the rest are counted in one line. */
export const MAX_PER_RULE = 20;

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
 * (control-chars.ts); the caret stays under the span they shift. A long line is quoted as a window
 * around the span (source-window.ts), and past MAX_PER_RULE findings of one rule in one file the
 * rest are counted, not printed: a one-line spec with thousands of findings prints kilobytes.
 */
export function formatPretty(
  diagnostics: readonly Diagnostic[],
  sources: ReadonlyMap<string, string>,
  color: boolean,
): string {
  const paint: Paint = color ? (s, t) => styleText(s, t) : (_s, t) => t;
  const out: string[] = [];
  const lines = new Map<string, readonly string[] | undefined>();
  // One rule broken a thousand times in one file is said MAX_PER_RULE times, then counted.
  const printed = new Map<string, number>();
  const omitted = new Map<string, { file: string; rule: string; count: number }>();
  for (const d of diagnostics) {
    const key = `${d.rule}\u0000${d.file}`;
    const seen = printed.get(key) ?? 0;
    if (seen >= MAX_PER_RULE) {
      const o = omitted.get(key) ?? { file: d.file, rule: d.rule, count: 0 };
      o.count += 1;
      omitted.set(key, o);
      continue;
    }
    printed.set(key, seen + 1);
    const sev =
      d.severity === "error"
        ? paint(["bold", "red"], "error")
        : paint(["bold", "yellow"], "warning");
    const hint = d.hint === undefined ? undefined : showControls(d.hint);
    out.push(
      `${paint("bold", `${showControls(d.file)}:${d.line}:${d.column}`)}: ${sev}: ${showControls(d.message)} ${paint("gray", `[${d.rule}]`)}`,
    );
    if (!lines.has(d.file)) lines.set(d.file, sources.get(d.file)?.split(/\r?\n/));
    const line = lines.get(d.file)?.[d.line - 1];
    if (line === undefined) {
      if (hint) out.push(`  ${paint("cyan", "hint:")} ${hint}`);
      continue;
    }
    const gutter = String(d.line).length;
    const pad = " ".repeat(gutter);
    // A window of the line, not the line: output grows with the findings, never with line length.
    const end = d.endLine === d.line ? d.endColumn : line.length + 1;
    const shown = sourceWindow(line, d.column, end);
    const caret = paint(d.severity === "error" ? "red" : "yellow", "^".repeat(shown.carets));
    out.push(`${pad} ${paint("gray", "|")}`);
    out.push(`${paint("gray", `${d.line} |`)} ${shown.text}`);
    out.push(
      `${pad} ${paint("gray", "|")} ${" ".repeat(shown.before)}${caret}${hint ? ` ${paint("cyan", hint)}` : ""}`,
    );
  }
  for (const o of omitted.values())
    out.push(
      paint(
        "gray",
        `… and ${o.count} more \`${o.rule}\` finding${o.count === 1 ? "" : "s"} in ${showControls(o.file)}`,
      ),
    );
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
