import { resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { CATALOG, RULE_NAMES } from "../../diagnostics/rule-catalog.js";
import { escapeJsonControls } from "./control-chars.js";
import { RULE_DOCS, ruleHelp } from "./rule-help.js";
import { workingPath } from "./working-path.js";

/** The base URI id GitHub code scanning and the SARIF tools know for the checked-out sources. */
const SRCROOT = "%SRCROOT%";

/**
 * SARIF 2.1.0, for GitHub code scanning and other SARIF viewers. Every rule carries what code
 * scanning shows (short and full description, help as text and markdown, help URI); file URIs are
 * relative to `cwd`, the working directory, through `%SRCROOT%`, however the files were named.
 */
export function formatSarif(
  diagnostics: readonly Diagnostic[],
  version: string,
  cwd: string,
): string {
  const rules = RULE_NAMES.map((name) => {
    const help = ruleHelp(name);
    return {
      id: name,
      name: friendlyName(name),
      shortDescription: { text: CATALOG[name].summary },
      fullDescription: { text: help.fullDescription },
      help: { text: help.text, markdown: help.markdown },
      helpUri: help.helpUri,
      defaultConfiguration: { level: CATALOG[name].severity === "error" ? "error" : "warning" },
    };
  });
  const results = diagnostics.map((d) => ({
    ruleId: d.rule,
    ...ruleIndex(d.rule),
    level: d.severity === "error" ? "error" : "warning",
    message: { text: d.hint ? `${d.message} (${d.hint})` : d.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: artifactLocation(d.file, cwd),
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
        tool: {
          driver: {
            name: "graphspec",
            version,
            semanticVersion: version,
            informationUri: RULE_DOCS,
            rules,
          },
        },
        // The base the relative URIs stand on: an absolute directory URI, ending in `/`.
        originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(`${resolve(cwd)}${sep}`).href } },
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

/** `unknown-node` → `UnknownNode`: the SARIF `name` viewers may show beside the id. */
const friendlyName = (rule: string) =>
  rule.replace(/(?:^|-)([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * A file inside the working directory is a relative URI on `%SRCROOT%` (percent-encoded), whether
 * it was named relatively or absolutely; code scanning maps it to the repository when run from the
 * root. A file outside it (named on purpose) keeps an absolute `file:` URI: no relative one is true.
 */
function artifactLocation(file: string, cwd: string): { uri: string; uriBaseId?: string } {
  const rel = workingPath(file, cwd);
  if (rel === undefined) return { uri: pathToFileURL(resolve(cwd, file)).href };
  return { uri: rel.split("/").map(encodeURIComponent).join("/"), uriBaseId: SRCROOT };
}
