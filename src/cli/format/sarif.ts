import { isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { CATALOG, RULE_NAMES } from "../../diagnostics/rule-catalog.js";
import { escapeJsonControls } from "./control-chars.js";

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
    ...ruleIndex(d.rule),
    level: d.severity === "error" ? "error" : "warning",
    message: { text: d.hint ? `${d.message} (${d.hint})` : d.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: fileUri(d.file) },
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
      {
        tool: { driver: { name: "graphspec", version, informationUri: DOCS, rules } },
        // Columns count UTF-16 code units, as JavaScript strings (and SARIF's default) do.
        columnKind: "utf16CodeUnits",
        results,
      },
    ],
  };
  return escapeJsonControls(JSON.stringify(log, null, 2));
}

/** `ruleIndex` points into `driver.rules`; omitted for a rule the catalog does not know. */
function ruleIndex(rule: string): { ruleIndex?: number } {
  const i = RULE_NAMES.indexOf(rule as (typeof RULE_NAMES)[number]);
  return i < 0 ? {} : { ruleIndex: i };
}

/** SARIF wants URIs: relative paths stay relative (to the repository root, for code scanning), percent-encoded. */
function fileUri(file: string): string {
  const path = file.replaceAll("\\", "/");
  if (isAbsolute(file)) return pathToFileURL(file).href;
  return path.split("/").map(encodeURIComponent).join("/");
}
