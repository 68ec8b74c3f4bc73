/** What validate reports on a file that is not a spec (spec/not-a-spec.ts decides which). */
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { diagnosticAtSpan, type SpecDocument } from "../spec/document.js";

/** Load findings that show nothing of a file's content: sizes, encodings, unreadable paths. */
const CONTENT_FREE = new Set<string>(["io", "encoding", "resource-limit", "path-escape"]);

/**
 * A file that is not a spec gets one finding, which shows none of its content (no schema message
 * quoting a value, no key names) — or only its content-free load errors, when it has any.
 */
export function notASpecFindings(doc: SpecDocument, reason: string): Diagnostic[] {
  const contentFree = doc.problems.filter((d) => CONTENT_FREE.has(d.rule));
  if (contentFree.some((d) => d.severity === "error")) return contentFree;
  return [
    diagnosticAtSpan(doc, [0, 0], {
      rule: "not-a-spec",
      severity: "error",
      message: `this is not a graphspec spec: ${reason}`,
      hint: "validate spec files only (name them, or keep other YAML and JSON out of the directories you validate); nothing of this file is shown",
    }),
  ];
}
