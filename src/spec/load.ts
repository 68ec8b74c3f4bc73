import { lstat, readFile, stat } from "node:fs/promises";
import { basename, dirname, extname, resolve } from "node:path";
import { parseDocument, type YAMLError } from "yaml";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { RuleName } from "../diagnostics/rule-catalog.js";
import { attachCatalog, takeCatalog } from "./catalog.js";
import { decode } from "./decode.js";
import {
  type DiagnosticInput,
  diagnosticAtPath,
  diagnosticAtSpan,
  type SpecDocument,
} from "./document.js";
import { findDuplicateKeys } from "./duplicate-keys.js";
import { escapesRoot, ioReason } from "./inside-root.js";
import { firstJsonSyntaxError } from "./json-syntax.js";
import { flowDepthExceeded } from "./nesting.js";
import { PathProbes } from "./path-probes.js";
import { findProjectRoot } from "./project-root.js";
import { attachPrompts, MAX_PROMPT_BYTES, MAX_PROMPT_TOTAL } from "./prompt-files.js";
import { type Path, SourceMap, type Span } from "./source-map.js";
import { scanSuppressions } from "./suppressions.js";
import { findUnresolvedAliases } from "./unresolved-aliases.js";

/** Limits that keep hostile files from hanging or crashing the loader. */
export const LOAD_LIMITS = {
  /** Bytes in one spec file. */
  maxBytes: 1024 * 1024,
  /** Nesting of flow collections (`[`, `{`), checked before parsing: the YAML composer recurses per level. */
  maxFlowDepth: 256,
  /** Nesting depth of the parsed data. */
  maxDepth: 64,
  /** Alias expansions (YAML "billion laughs"). */
  maxAliasCount: 100,
  /** Syntax errors (and duplicate keys) reported per file; a broken file can have one per character. */
  maxSyntaxErrors: 100,
  /** Bytes in one prompt file (`system: { file: ... }`). */
  maxPromptBytes: MAX_PROMPT_BYTES,
  /** Characters of prompt text one spec takes from files, counted for each prompt naming one. */
  maxPromptTotal: MAX_PROMPT_TOTAL,
};

/** Keys that could reach an object's prototype in code that handles the data; never meaningful in a spec. */
const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export interface ParseOptions {
  /** The path to print in diagnostics. Default: `path`. */
  file?: string;
  /** Project root for `path-escape`. Default: the nearest ancestor with package.json or .git. */
  root?: string;
  format?: "yaml" | "json";
}

/** How a spec file is read: `ParseOptions`, and the run's probes when it reads many files. */
export interface ReadOptions extends Omit<ParseOptions, "format"> {
  /** Answers about folders shared by the files of one run (path-probes.ts). Default: asked anew. */
  probes?: PathProbes;
}

/** Thrown by `loadSpec` when the file cannot be read or parsed; carries the diagnostics. */
export class SpecError extends Error {
  readonly diagnostics: Diagnostic[];
  constructor(message: string, diagnostics: Diagnostic[]) {
    super(message);
    this.name = "SpecError";
    this.diagnostics = diagnostics;
  }
}

const formatOf = (path: string): "yaml" | "json" =>
  extname(path).toLowerCase() === ".json" ? "json" : "yaml";

/** Reads and parses a spec file. Throws `SpecError` when the file cannot be read or has load errors. */
export async function loadSpec(path: string, options: ReadOptions = {}): Promise<SpecDocument> {
  const doc = await readSpec(path, options);
  const errors = doc.problems.filter((p) => p.severity === "error");
  if (errors.length) {
    const first = errors[0]!;
    throw new SpecError(
      `${first.file}:${first.line}:${first.column}: ${first.message}`,
      doc.problems,
    );
  }
  return doc;
}

/**
 * Like `loadSpec`, but never throws on bad input: problems are in `doc.problems`. A spec that
 * names a `catalog:` takes its tools and models (catalog.ts); a prompt naming its `file` takes
 * the file's text (prompt-files.ts).
 */
export async function readSpec(path: string, options: ReadOptions = {}): Promise<SpecDocument> {
  const probes = options.probes ?? new PathProbes();
  return withReferences(await readSpecFile(path, { ...options, probes }), probes);
}

/**
 * Like `readSpec`, for text that is not (or not yet) what the file holds — an editor's unsaved
 * buffer: parsed as the file at `path` would be, its catalog and prompt files read from disk.
 */
export async function readSpecText(
  path: string,
  text: string,
  options: ReadOptions = {},
): Promise<SpecDocument> {
  const { probes = new PathProbes(), ...parseOptions } = options;
  const abs = resolve(path);
  const root = options.root ?? probes.projectRoot(dirname(abs));
  return withReferences(
    parseSpec(text, { ...parseOptions, root, format: formatOf(abs) }, abs),
    probes,
  );
}

/** A parsed spec with what it names in other files: its catalog's entries, its prompt files' text. */
async function withReferences(doc: SpecDocument, probes: PathProbes): Promise<SpecDocument> {
  // The catalog's own `catalog:` key is refused as a key a catalog does not hold, not followed.
  await attachCatalog(doc, (abs, file) => readSpecFile(abs, { root: doc.root, file, probes }));
  // After the catalog: prompt files' spans come after its text (document.ts `locateSpan`).
  if (doc.data !== undefined) await attachPrompts(doc, probes);
  return doc;
}

/**
 * The smallest spec there is, standing beside a catalog checked on its own: it names the catalog,
 * so the catalog's entries are checked by the very rules, positions and messages a spec naming it
 * gets. Its own findings (it uses no tool, say) are not the catalog's and are dropped by the caller.
 */
const CATALOG_HOST = `version: 1
name: catalog
state:
  messages: { type: messages }
nodes:
  start: { kind: set, values: { messages: [] } }
edges:
  - { from: START, to: start }
  - { from: start, to: END }
`;

/**
 * A catalog file (`isCatalog`) named by the smallest spec, for validate to check it on its own.
 * Findings in the catalog file are the catalog's; those in the host (its file name ends in
 * `(catalog host)`) are not.
 */
export function catalogHost(catalog: SpecDocument): SpecDocument {
  const host = parseSpec(
    CATALOG_HOST,
    { file: `${catalog.file} (catalog host)`, root: catalog.root, format: "yaml" },
    catalog.path,
  );
  takeCatalog(host, catalog, basename(catalog.path));
  return host;
}

/** One file read and parsed, inside the project root, never throwing on bad input. */
async function readSpecFile(path: string, options: ReadOptions = {}): Promise<SpecDocument> {
  const { probes = new PathProbes(), ...parseOptions } = options;
  const abs = resolve(path);
  const file = options.file ?? path;
  // Found once here (and once per run with shared probes), not again for the document.
  const root = options.root ?? probes.projectRoot(dirname(abs));
  const fail = (rule: RuleName, message: string, hint?: string): SpecDocument => {
    const doc = emptyDocument(abs, file, root, formatOf(abs), "");
    doc.problems.push(diagnosticAtSpan(doc, [0, 0], { rule, severity: "error", message, hint }));
    return doc;
  };
  // One lstat says what a file that is not a link is, and (with its folder's real path, found
  // once per run) where it really is: a realpath and a stat less per file.
  const link = await lstat(abs).catch(() => undefined);
  const outside = await escapesRoot(abs, root, probes, link);
  if (outside) return fail("path-escape", `${file} ${outside}; it was not read`, ESCAPE_HINT);
  let bytes: Uint8Array;
  try {
    const info = link && !link.isSymbolicLink() ? link : await stat(abs);
    if (info.isDirectory())
      return fail(
        "io",
        `${file} is a directory, not a spec file`,
        "name a .yaml, .yml or .json file",
      );
    if (!info.isFile()) return fail("io", `${file} is not a regular file`);
    if (info.size > LOAD_LIMITS.maxBytes) {
      return fail(
        "resource-limit",
        `the file is ${info.size} bytes; a spec may have at most ${LOAD_LIMITS.maxBytes}`,
        "split it into subgraphs",
      );
    }
    bytes = await readFile(abs);
  } catch (e) {
    return fail("io", `cannot read ${file}: ${ioReason(e)}`);
  }
  return parseSpec(bytes, { ...parseOptions, root, file, format: formatOf(abs) }, abs);
}

const ESCAPE_HINT =
  "validate specs inside the project; copy a spec into it rather than linking to one elsewhere";

/** Parses spec text (or bytes) that did not come from a file read by graphspec. Never throws on bad input. */
export function parseSpec(
  input: string | Uint8Array,
  options: ParseOptions = {},
  absPath?: string,
): SpecDocument {
  const path = absPath ?? resolve(options.file ?? "<spec>.yaml");
  const file = options.file ?? path;
  const format = options.format ?? formatOf(path);
  const decoded = typeof input === "string" ? { text: input } : decode(input);
  if ("error" in decoded) {
    const doc = emptyDocument(path, file, options.root, format, "");
    doc.problems.push({
      file,
      line: decoded.line,
      column: decoded.column,
      endLine: decoded.line,
      endColumn: decoded.column + 1,
      ...withoutUndefined(decoded.error),
    });
    return doc;
  }
  const text = decoded.text.startsWith("\uFEFF") ? decoded.text.slice(1) : decoded.text;
  const doc = emptyDocument(path, file, options.root, format, text);
  const report = (span: Span, d: LoadFinding) => doc.problems.push(diagnosticAtSpan(doc, span, d));
  const limit = (span: Span, message: string, hint?: string) =>
    report(span, { rule: "resource-limit", severity: "error", message, hint });

  if (text.length > LOAD_LIMITS.maxBytes) {
    limit(
      [0, 0],
      `spec text is ${text.length} characters; a spec may have at most ${LOAD_LIMITS.maxBytes}`,
      "split it into subgraphs",
    );
    return doc;
  }
  const deep = flowDepthExceeded(text, LOAD_LIMITS.maxFlowDepth);
  if (deep !== undefined) {
    limit(
      [deep, deep + 1],
      `collections are nested more than ${LOAD_LIMITS.maxFlowDepth} deep`,
      "flatten the data",
    );
    return doc;
  }
  if (format === "json") {
    const error = firstJsonSyntaxError(text);
    if (error) {
      report(error.span, { rule: "json-syntax", severity: "error", ...error });
      return doc;
    }
  }

  let yamlDoc: ReturnType<typeof parseDocument>;
  // Each YAML error is an Error: without stack traces, a file of a million errors parses in
  // seconds rather than a minute.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    yamlDoc = parseDocument(text, {
      // Duplicate keys are found in one pass below: the parser's own check is quadratic.
      uniqueKeys: false,
      prettyErrors: false,
      strict: true,
      // Not `warn`: it prints to the process's stderr (e.g. for a mapping used as a key).
      logLevel: "error",
    });
  } catch (e) {
    limit([0, 0], `the YAML parser gave up: ${(e as Error).message}`);
    return doc;
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  const errors = [...yamlDoc.errors, ...yamlDoc.warnings] as YAMLError[];
  if (format === "json") {
    // JSON is a subset of YAML 1.2, but should the YAML parser still reject valid JSON,
    // trust JSON and give up only precise positions.
    if (yamlDoc.errors.length) {
      doc.data = JSON.parse(text);
      scrubData(doc);
      return doc;
    }
  } else {
    // The parser may hit its stack limit at several places of one deep structure: say it once.
    const tooDeep = errors.find((e) => /maximum call stack/i.test(e.message));
    if (tooDeep) limit(tooDeep.pos, "the spec is nested too deeply to parse", "flatten the data");
    const shown = errors.filter((e) => e !== tooDeep && !/maximum call stack/i.test(e.message));
    for (const err of shown.slice(0, LOAD_LIMITS.maxSyntaxErrors))
      reportYamlError(doc, err, yamlDoc.warnings.includes(err), report);
    const more = shown[LOAD_LIMITS.maxSyntaxErrors];
    if (more) {
      report(more.pos, {
        rule: "yaml-syntax",
        severity: "error",
        message: `${shown.length - LOAD_LIMITS.maxSyntaxErrors} more syntax errors from here on are not shown`,
        hint: "fix the first ones: the rest often follow from them",
      });
    }
    if (yamlDoc.errors.length) return doc;
  }
  doc.map.index(yamlDoc.contents);
  const duplicates = findDuplicateKeys(yamlDoc.contents);
  for (const dup of duplicates.slice(0, LOAD_LIMITS.maxSyntaxErrors)) {
    const firstLine = doc.map.position(dup.first[0]).line;
    report(dup.span, {
      rule: "duplicate-key",
      severity: "error",
      message: `duplicate key \`${dup.key}\`: it is already set on line ${firstLine}, and only the last value would count`,
      hint: "remove one of them, or rename it",
    });
  }
  const moreDuplicates = duplicates[LOAD_LIMITS.maxSyntaxErrors];
  if (moreDuplicates) {
    report(moreDuplicates.span, {
      rule: "duplicate-key",
      severity: "error",
      message: `${duplicates.length - LOAD_LIMITS.maxSyntaxErrors} more duplicate keys from here on are not shown`,
    });
  }

  // An alias is written `*name`: a text without a `*` has none, and needs no walk over the tree.
  const unresolved = text.includes("*") ? findUnresolvedAliases(yamlDoc) : [];
  for (const alias of unresolved) {
    const defined = alias.anchors.map((a) => `\`&${a}\``).join(", ");
    report(alias.span, {
      rule: "yaml-syntax",
      severity: "error",
      message: `alias \`*${alias.name}\` has no anchor \`&${alias.name}\` before it`,
      hint: defined
        ? `anchors defined before it: ${defined}`
        : `define the anchor first, e.g. \`base: &${alias.name} { ... }\``,
    });
  }
  if (unresolved.length) return doc;

  try {
    doc.data = yamlDoc.toJS({ maxAliasCount: LOAD_LIMITS.maxAliasCount });
  } catch (e) {
    const message = (e as Error).message;
    if (/alias/i.test(message))
      limit(
        [0, 0],
        `aliases expand too much: an anchor may be used at most ${LOAD_LIMITS.maxAliasCount} times, counting the uses inside what it holds`,
        "use fewer aliases, or write the values out",
      );
    else limit([0, 0], `the data cannot be built: ${message}`);
    return doc;
  }
  scrubData(doc);
  return doc;
}

function reportYamlError(
  doc: SpecDocument,
  err: YAMLError,
  isWarning: boolean,
  report: (span: Span, d: LoadFinding) => void,
): void {
  const severity = isWarning ? "warning" : "error";
  if (err.code === "MULTIPLE_DOCS") {
    // Point at the `---` that starts the second document rather than at all of it.
    const at = err.pos[0];
    const marker = doc.text.startsWith("---", at) ? 3 : 1;
    report([at, at + marker], {
      rule: "yaml-syntax",
      severity,
      message: "the file holds more than one YAML document",
      hint: "one file holds one graph; move the other document to its own file",
    });
    return;
  }
  report(err.pos, {
    rule: "yaml-syntax",
    severity,
    message: syntaxMessage(err),
    hint: syntaxHint(err),
  });
}

/** A collection met while scrubbing: its path is kept as a link to its parent, built only to report. */
interface Visit {
  value: object;
  depth: number;
  parent?: Visit;
  key?: string | number;
}

const pathOfVisit = (visit: Visit): (string | number)[] => {
  const path: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.push(at.key!);
  return path.reverse();
};

/** Reports and removes prototype-polluting keys and data nested beyond the depth limit. */
function scrubData(doc: SpecDocument): void {
  if (doc.data === null || typeof doc.data !== "object") return;
  const stack: Visit[] = [{ value: doc.data, depth: 0 }];
  while (stack.length) {
    const visit = stack.pop()!;
    const { value, depth } = visit;
    if (depth > LOAD_LIMITS.maxDepth) {
      doc.problems.push(
        diagnosticAtPath(doc, pathOfVisit(visit), {
          rule: "resource-limit",
          severity: "error",
          message: `data is nested more than ${LOAD_LIMITS.maxDepth} levels deep`,
          hint: "flatten the data",
        }),
      );
      doc.data = undefined;
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item: unknown, i) => {
        if (item !== null && typeof item === "object")
          stack.push({ value: item, depth: depth + 1, parent: visit, key: i });
      });
      continue;
    }
    for (const key of Object.keys(value)) {
      if (UNSAFE_KEYS.has(key)) {
        doc.problems.push(
          diagnosticAtPath(
            doc,
            [...pathOfVisit(visit), key],
            {
              rule: "unsafe-key",
              severity: "error",
              message: `key \`${key}\` is not allowed in a spec`,
              hint: "rename it",
            },
            "key",
          ),
        );
        delete (value as Record<string, unknown>)[key];
        continue;
      }
      const item = (value as Record<string, unknown>)[key];
      if (item !== null && typeof item === "object")
        stack.push({ value: item, depth: depth + 1, parent: visit, key });
    }
  }
}

function emptyDocument(
  path: string,
  file: string,
  root: string | undefined,
  format: "yaml" | "json",
  text: string,
): SpecDocument {
  const map = new SourceMap(text);
  return {
    file,
    path,
    root: root ?? findProjectRoot(dirname(path)),
    format,
    text,
    data: undefined,
    map,
    problems: [],
    suppressions: scanSuppressions(text, (offset) => map.position(offset).line),
  };
}

/** What the loader finds: only the catalog's loading rules. */
type LoadFinding = DiagnosticInput & { rule: RuleName };

const withoutUndefined = (d: DiagnosticInput): DiagnosticInput =>
  d.hint === undefined ? { rule: d.rule, severity: d.severity, message: d.message } : d;

function syntaxMessage(err: YAMLError): string {
  const first = err.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
  return first.charAt(0).toLowerCase() + first.slice(1);
}

function syntaxHint(err: YAMLError): string | undefined {
  switch (err.code) {
    case "TAB_AS_INDENT":
      return "indent with spaces";
    case "MISSING_CHAR":
      return "close the bracket or quote";
    default:
      return /end with an? [\]}]/.test(err.message) ? "close the bracket" : undefined;
  }
}

export type { Path };
