import { parseArgs } from "node:util";
import { validate } from "../../check/validate.js";
import type { Diagnostic, Severity } from "../../diagnostics/diagnostic.js";
import { RULE_NAMES, type RuleName } from "../../diagnostics/rule-catalog.js";
import { didYouMean } from "../../diagnostics/suggest.js";
import { readSpec } from "../../spec/load.js";
import { expandSpecPaths } from "../files.js";
import { formatGithub } from "../format/github.js";
import { formatPretty, summaryLine } from "../format/pretty.js";
import { formatSarif } from "../format/sarif.js";
import { EXIT, type Io, UsageError } from "../io.js";
import { VERSION } from "../version.js";

export const validateHelp = `Usage: graphspec validate [paths|globs|dirs...] [options]

Checks spec files against the schema and every semantic rule (default: graphs/).
Directories and globs skip node_modules, dot-directories, *.test.* and package/tsconfig JSON;
a file named explicitly is always checked.

Options:
  -f, --format <pretty|json|github|sarif>  output format (default: pretty)
      --max-warnings <n>                   fail (exit 1) when there are more than n warnings
      --rule <name=off|warning|error>      change a rule's severity; repeatable
      --no-modules                         do not load tool/function modules (skips export and tool-args checks)
  -q, --quiet                              print errors only (warnings still count for --max-warnings)
  -h, --help                               show this help

Exit: 0 no errors, 1 errors (or too many warnings), 2 usage error.
Suppress findings in YAML with a comment: \`# graphspec-disable-line RULE\`,
\`# graphspec-disable-next-line RULE, RULE\`, or \`# graphspec-disable RULE\` for the whole file.
Docs: docs/cli.md; every rule: docs/rules.md.`;

const FORMATS = ["pretty", "json", "github", "sarif"] as const;

export async function validateCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: "string", short: "f", default: "pretty" },
      "max-warnings": { type: "string" },
      rule: { type: "string", multiple: true },
      "no-modules": { type: "boolean", default: false },
      quiet: { type: "boolean", short: "q", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out(validateHelp);
    return EXIT.ok;
  }
  const format = values.format as (typeof FORMATS)[number];
  if (!FORMATS.includes(format))
    throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, not "${values.format}"`);
  let maxWarnings = Number.POSITIVE_INFINITY;
  if (values["max-warnings"] !== undefined) {
    maxWarnings = Number(values["max-warnings"]);
    if (!Number.isInteger(maxWarnings) || maxWarnings < 0)
      throw new UsageError("--max-warnings takes a whole number ≥ 0");
  }
  const severity = parseRuleOverrides(values.rule ?? []);

  const { files, missing } = await expandSpecPaths(
    positionals.length ? positionals : ["graphs/"],
    io.cwd,
  );
  if (missing.length)
    throw new UsageError(`no spec files match ${missing.map((m) => `"${m}"`).join(", ")}`);

  const sources = new Map<string, string>();
  const cache = new Map<string, unknown>();
  let all: Diagnostic[] = [];
  for (const file of files) {
    const doc = await readSpec(file);
    // A file that could not be decoded has no text to quote under its diagnostics.
    if (doc.text) sources.set(doc.file, doc.text);
    all.push(...(await validate(doc, { loadModules: !values["no-modules"], severity, cache })));
  }
  // Count before --quiet hides warnings: a CI gate must not depend on how much is printed.
  const errors = all.filter((d) => d.severity === "error").length;
  const warnings = all.length - errors;
  if (values.quiet) all = all.filter((d) => d.severity === "error");

  if (format === "json") io.out(JSON.stringify(all, null, 2));
  else if (format === "sarif") io.out(formatSarif(all, VERSION));
  else if (format === "github") {
    if (all.length) io.out(formatGithub(all));
    io.err(summaryLine(all, files.length, false));
  } else {
    if (all.length) io.out(`${formatPretty(all, sources, io.isTty)}\n`);
    io.err(summaryLine(all, files.length, io.isTty));
  }
  if (warnings > maxWarnings)
    io.err(
      `${warnings} warning${warnings === 1 ? " exceeds" : "s exceed"} --max-warnings ${maxWarnings}`,
    );
  return errors > 0 || warnings > maxWarnings ? EXIT.findings : EXIT.ok;
}

function parseRuleOverrides(specs: string[]): Partial<Record<RuleName, Severity | "off">> {
  const out: Partial<Record<RuleName, Severity | "off">> = {};
  for (const spec of specs) {
    const [name = "", level] = spec.split("=");
    if (!RULE_NAMES.includes(name as RuleName)) {
      const hint = didYouMean(name, RULE_NAMES);
      throw new UsageError(`--rule: unknown rule "${name}"${hint ? ` (${hint})` : ""}`);
    }
    if (level !== "off" && level !== "warning" && level !== "error") {
      throw new UsageError(`--rule ${name}: level must be off, warning or error`);
    }
    out[name as RuleName] = level;
  }
  return out;
}
