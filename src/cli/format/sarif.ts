import { CATALOG, RULE_NAMES } from "../../check/catalog.js";
import type { Diagnostic } from "../../check/diagnostic.js";

const DOCS = "https://github.com/graphspec/graphspec/blob/main/docs/rules";

/** SARIF 2.1.0, for GitHub code scanning and other SARIF viewers. */
export function formatSarif(diagnostics: readonly Diagnostic[], version: string): string {
  const rules = RULE_NAMES.map((name) => ({
    id: name,
    shortDescription: { text: CATALOG[name].summary },
    helpUri: `${DOCS}/${name}.md`,
    defaultConfiguration: { level: CATALOG[name].severity === "error" ? "error" : "warning" },
  }));
  const results = diagnostics.map((d) => ({
    ruleId: d.rule,
    ruleIndex: Math.max(0, RULE_NAMES.indexOf(d.rule as (typeof RULE_NAMES)[number])),
    level: d.severity === "error" ? "error" : "warning",
    message: { text: d.hint ? `${d.message} (${d.hint})` : d.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: d.file.replaceAll("\\", "/") },
          region: {
            startLine: d.line,
            startColumn: d.column,
            endLine: d.endLine,
            endColumn: d.endColumn,
          },
        },
      },
    ],
  }));
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      { tool: { driver: { name: "graphspec", version, informationUri: DOCS, rules } }, results },
    ],
  };
  return JSON.stringify(log, null, 2);
}
