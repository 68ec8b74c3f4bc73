import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { type ValidateOptions, validate } from "../../check/validate.js";
import type { Diagnostic, Severity } from "../../diagnostics/diagnostic.js";
import { RULE_NAMES, type RuleName } from "../../diagnostics/rule-catalog.js";
import { didYouMean } from "../../diagnostics/suggest.js";
import { isCatalog } from "../../spec/catalog.js";
import { promptSources } from "../../spec/document.js";
import { notASpec } from "../../spec/not-a-spec.js";
import { PathProbes } from "../../spec/path-probes.js";
import { durationArg } from "../args.js";
import { type Escape, expandSpecPaths } from "../files.js";
import { escapeJsonControls } from "../format/control-chars.js";
import { formatGithub } from "../format/github.js";
import { formatPretty, summaryLine } from "../format/pretty.js";
import { formatSarif } from "../format/sarif.js";
import { EXIT, type Io, UsageError } from "../io.js";
import { readSpecsAhead } from "../read-ahead.js";
import { VERSION } from "../version.js";

export const validateHelp = `Usage: graphspec validate [paths|globs|dirs...] [options]

Checks spec files against the schema and every semantic rule (default: graphs/).
Directories and globs skip node_modules, dot-directories, *.test.* and package/tsconfig JSON;
a file named explicitly is always checked.

Options:
  -f, --format <pretty|json|github|sarif>  output format (default: pretty)
      --max-warnings <n>                   fail (exit 1) when there are more than n warnings
      --rule <name=off|warning|error>      change a rule's severity; repeatable
      --load-modules                       also load the modules the specs name (runs their code: trusted
                                           code only), each in a separate process without this one's
                                           environment, to check what their exports are and tools'
                                           argument schemas. Default: modules are parsed, never run
      --load-timeout <duration>            how long one module may take to load (default 10s)
      --load-env <NAME>                    pass environment variable NAME to the loading processes;
                                           repeatable (they get only PATH otherwise)
      --no-modules                         do not read modules at all: only check that the files exist
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
      "load-modules": { type: "boolean", default: false },
      "load-timeout": { type: "string" },
      "load-env": { type: "string", multiple: true },
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
  const maxWarnings = maxWarningsArg(values["max-warnings"]);
  const severity = parseRuleOverrides(values.rule ?? []);
  const loadModules = parseLoadModules(values);

  const { files, missing, escapes } = await expandSpecPaths(
    positionals.length ? positionals : ["graphs/"],
    io.cwd,
  );
  if (missing.length)
    throw new UsageError(`no spec files match ${missing.map((m) => `"${m}"`).join(", ")}`);

  const sources = new Map<string, string>();
  const cache = new Map<string, unknown>();
  const all: Diagnostic[] = escapes.flatMap((e) => escapeFinding(e, severity));
  const catalogFiles = new Set<string>();
  const promptFiles = new Set<string>();
  const sharedFindings = new Set<string>();
  // One run's answers about folders and modules, shared by all its files.
  const probes = new PathProbes();
  for await (const doc of readSpecsAhead(files, io.cwd, probes)) {
    if (isCatalog(doc)) catalogFiles.add(doc.path);
    if (doc.catalog) catalogFiles.add(doc.catalog.doc.path);
    // Source lines are quoted under diagnostics only for specs: never for a file that could not be
    // decoded, nor for one that is not a spec (it may be anything, credentials included).
    if (doc.text && !notASpec(doc)) sources.set(doc.file, doc.text);
    // Its catalog's entries are reported in the catalog file: quote them from there.
    if (doc.catalog?.doc.text) sources.set(doc.catalog.doc.file, doc.catalog.doc.text);
    // Expressions in a prompt file are reported there: quote them from it.
    for (const [file, text] of promptSources(doc)) sources.set(file, text);
    for (const p of doc.prompts ?? []) promptFiles.add(p.abs);
    for (const d of await validate(doc, { loadModules, severity, cache, probes })) {
      // A catalog is checked on its own and through every spec that names it, and a prompt file
      // through every spec that names it: say each finding there once.
      // Named from different folders, one file has several names: compare where it is.
      const abs = resolve(io.cwd, d.file);
      const at = `${abs}:${d.line}:${d.column}:${d.rule}`;
      // Specs with other state may find other things at one place of a prompt file: those stay.
      const key = catalogFiles.has(abs)
        ? at
        : promptFiles.has(abs)
          ? `${at}:${d.message}`
          : undefined;
      if (key !== undefined) {
        if (sharedFindings.has(key)) continue;
        sharedFindings.add(key);
      }
      all.push(d);
    }
  }
  // Count before --quiet hides warnings: a CI gate must not depend on how much is printed.
  const errors = all.filter((d) => d.severity === "error").length;
  const warnings = all.length - errors;
  const tooManyWarnings = warnings > maxWarnings;
  const failed = errors > 0 || tooManyWarnings;
  const shown = values.quiet ? all.filter((d) => d.severity === "error") : all;

  // `replacement` is for editors (graphspec lsp's quick fixes); the hint says it to people.
  if (format === "json")
    io.out(escapeJsonControls(JSON.stringify(shown.map(withoutReplacement), null, 2)));
  else if (format === "sarif") io.out(formatSarif(shown, VERSION, io.cwd));
  else {
    const color = format === "pretty" && io.isTty;
    if (shown.length)
      io.out(
        format === "github"
          ? formatGithub(shown, io.cwd)
          : `${formatPretty(shown, sources, color)}\n`,
      );
    // Quiet prints only what fails: no "✔ valid" above a failure, no summary of a passing run.
    // The summary counts every finding, the hidden warnings too.
    if (!values.quiet || errors > 0) io.err(summaryLine(all, files.length, color));
  }
  if (tooManyWarnings)
    io.err(
      `${warnings} warning${warnings === 1 ? " exceeds" : "s exceed"} --max-warnings ${maxWarnings}`,
    );
  return failed ? EXIT.findings : EXIT.ok;
}

/**
 * `--max-warnings`: digits only. `Number()` would read `""` as 0, `1e1` as 10 and `0x10` as 16,
 * silently gating CI on a number nobody wrote.
 */
function maxWarningsArg(text: string | undefined): number {
  if (text === undefined) return Number.POSITIVE_INFINITY;
  if (!/^\d+$/.test(text))
    throw new UsageError(`--max-warnings takes a whole number ≥ 0 (0, 10), not "${text}"`);
  return Number(text);
}

/** `loadModules` from the module flags: parse (default), load in separate processes, or files only. */
function parseLoadModules(values: {
  "load-modules": boolean;
  "load-timeout"?: string | undefined;
  "load-env"?: string[] | undefined;
  "no-modules": boolean;
}): ValidateOptions["loadModules"] {
  const env = values["load-env"] ?? [];
  if (!values["load-modules"]) {
    const stray =
      values["load-timeout"] !== undefined ? "--load-timeout" : env.length ? "--load-env" : "";
    if (stray) throw new UsageError(`${stray} only applies with --load-modules`);
    return values["no-modules"] ? false : undefined;
  }
  if (values["no-modules"])
    throw new UsageError("--load-modules and --no-modules contradict each other: choose one");
  const passed: Record<string, string> = {};
  for (const name of env) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new UsageError(`--load-env takes a variable name, not "${name}"`);
    const value = process.env[name];
    if (value !== undefined) passed[name] = value;
  }
  const timeout = durationArg("load-timeout", values["load-timeout"]);
  return { env: passed, ...(timeout !== undefined ? { timeout } : {}) };
}

/** A file or directory that leads out of the project: reported where it was found, never read. */
function escapeFinding(
  found: Escape,
  severity: Partial<Record<RuleName, Severity | "off">>,
): Diagnostic[] {
  const level = severity["path-escape"] ?? "error";
  if (level === "off") return [];
  return [
    {
      file: found.path,
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 1,
      rule: "path-escape",
      severity: level,
      message:
        found.kind === "file"
          ? "this file is a symbolic link to a file outside the project root; it was not read"
          : "this directory is a symbolic link to a directory outside the project root; it was not searched",
      hint: "validate specs inside the project; copy a spec into it rather than linking to one elsewhere",
    },
  ];
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

const withoutReplacement = ({ replacement: _, ...d }: Diagnostic): Diagnostic => d;
