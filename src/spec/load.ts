import { readFile, stat } from "node:fs/promises";
import { dirname, extname, resolve } from "node:path";
import { LineCounter, parseDocument, type YAMLError } from "yaml";
import type { Diagnostic } from "../check/diagnostic.js";
import {
  type DiagnosticInput,
  diagnosticAtPath,
  diagnosticAtSpan,
  type SpecDocument,
} from "./document.js";
import { findProjectRoot } from "./project-root.js";
import { type Path, SourceMap, type Span } from "./source-map.js";
import { scanSuppressions } from "./suppressions.js";

/** Limits that keep hostile files from hanging or crashing the loader. */
export const LOAD_LIMITS = {
  /** Bytes in one spec file. */
  maxBytes: 1024 * 1024,
  /** Nesting of flow collections (`[`, `{`) seen before parsing: the YAML parser aborts the process on ~20k. */
  maxFlowDepth: 256,
  /** Nesting depth of the parsed data. */
  maxDepth: 64,
  /** Alias expansions (YAML "billion laughs"). */
  maxAliasCount: 100,
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
export async function loadSpec(
  path: string,
  options: Omit<ParseOptions, "format"> = {},
): Promise<SpecDocument> {
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

/** Like `loadSpec`, but never throws on bad input: problems are in `doc.problems`. */
export async function readSpec(
  path: string,
  options: Omit<ParseOptions, "format"> = {},
): Promise<SpecDocument> {
  const abs = resolve(path);
  const file = options.file ?? path;
  const fail = (rule: string, message: string, hint?: string): SpecDocument =>
    failedDocument(abs, file, options.root, [{ rule, severity: "error", message, hint }]);
  let size: number;
  try {
    const info = await stat(abs);
    if (!info.isFile()) return fail("io", `${file} is not a file`);
    size = info.size;
  } catch (e) {
    return fail("io", `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  if (size > LOAD_LIMITS.maxBytes) {
    return fail(
      "resource-limit",
      `file is ${size} bytes; a spec may have at most ${LOAD_LIMITS.maxBytes}`,
      "split it into subgraphs",
    );
  }
  const bytes = await readFile(abs);
  return parseSpec(bytes, { ...options, file, format: formatOf(abs) }, abs);
}

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
    return failedDocument(
      path,
      file,
      options.root,
      [decoded.error],
      decoded.at,
      input as Uint8Array,
    );
  }
  const text = decoded.text.startsWith("\uFEFF") ? decoded.text.slice(1) : decoded.text;
  const lines = new LineCounter();
  const map = new SourceMap(text, lines);
  const doc: SpecDocument = {
    file,
    path,
    root: options.root ?? findProjectRoot(dirname(path)),
    format,
    text,
    data: undefined,
    map,
    problems: [],
    suppressions: scanSuppressions(text),
  };
  const report = (span: Span, d: DiagnosticInput) =>
    doc.problems.push(diagnosticAtSpan(doc, span, d));

  if (text.length > LOAD_LIMITS.maxBytes) {
    report([0, 0], {
      rule: "resource-limit",
      severity: "error",
      message: "spec text is too large",
    });
    return doc;
  }
  const deep = flowDepthExceeded(text, LOAD_LIMITS.maxFlowDepth);
  if (deep !== undefined) {
    lines.addNewLine(0);
    indexLines(text, lines);
    report([deep, deep + 1], {
      rule: "resource-limit",
      severity: "error",
      message: `collections are nested more than ${LOAD_LIMITS.maxFlowDepth} deep`,
    });
    return doc;
  }

  const syntaxRule = format === "json" ? "json-syntax" : "yaml-syntax";
  let yamlDoc: ReturnType<typeof parseDocument>;
  try {
    yamlDoc = parseDocument(text, {
      lineCounter: lines,
      uniqueKeys: true,
      prettyErrors: false,
      strict: true,
    });
  } catch (e) {
    indexLines(text, lines);
    report([0, 0], {
      rule: "resource-limit",
      severity: "error",
      message: `the parser gave up: ${(e as Error).message}`,
    });
    return doc;
  }
  for (const err of [...yamlDoc.errors, ...yamlDoc.warnings] as YAMLError[]) {
    const isDup = err.code === "DUPLICATE_KEY";
    report(err.pos, {
      rule: isDup ? "duplicate-key" : syntaxRule,
      severity: yamlDoc.warnings.includes(err) && !isDup ? "warning" : "error",
      message: isDup
        ? `duplicate key ${quoteKey(text, err.pos)}: a later value would silently replace the earlier one`
        : syntaxMessage(err),
      hint: isDup ? "remove one of them, or rename it" : syntaxHint(err),
    });
  }
  map.index(yamlDoc.contents);
  if (yamlDoc.errors.some((e) => e.code !== "DUPLICATE_KEY")) return doc;

  try {
    doc.data = yamlDoc.toJS({ maxAliasCount: LOAD_LIMITS.maxAliasCount });
  } catch (e) {
    report([0, 0], {
      rule: "resource-limit",
      severity: "error",
      message: `aliases expand too much (${(e as Error).message})`,
      hint: "use fewer nested aliases",
    });
    return doc;
  }
  scrubData(doc);
  return doc;
}

/** Reports and removes prototype-polluting keys and data nested beyond the depth limit. */
function scrubData(doc: SpecDocument): void {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: doc.data, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (path.length > LOAD_LIMITS.maxDepth) {
      doc.problems.push(
        diagnosticAtPath(doc, path, {
          rule: "resource-limit",
          severity: "error",
          message: `data is nested more than ${LOAD_LIMITS.maxDepth} levels deep`,
        }),
      );
      doc.data = undefined;
      return;
    }
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) stack.push({ value: item, path: [...path, i] });
      continue;
    }
    for (const key of Object.keys(value)) {
      if (UNSAFE_KEYS.has(key)) {
        doc.problems.push(
          diagnosticAtPath(
            doc,
            [...path, key],
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
      stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
}

/** The offset of the first flow collection opened deeper than `limit`, ignoring quoted text and comments. */
function flowDepthExceeded(text: string, limit: number): number | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
      else if (c === "\n" && quote === "'") quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "[" || c === "{") {
      if (++depth > limit) return i;
    } else if ((c === "]" || c === "}") && depth > 0) depth--;
  }
  return undefined;
}

function indexLines(text: string, lines: LineCounter): void {
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lines.addNewLine(i + 1);
}

function decode(bytes: Uint8Array): { text: string } | { error: DiagnosticInput; at: number } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder("utf-16le").decode(bytes.subarray(2)) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder("utf-16be").decode(bytes.subarray(2)) };
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    return {
      error: {
        rule: "encoding",
        severity: "error",
        message: "the file contains NUL bytes: it looks binary, not a YAML or JSON text",
        hint: "check that the path names a spec file",
      },
      at: nul,
    };
  }
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    const at = firstInvalidUtf8(bytes);
    return {
      error: {
        rule: "encoding",
        severity: "error",
        message: `the file is not valid UTF-8 (byte 0x${bytes[at]?.toString(16).padStart(2, "0")} at offset ${at})`,
        hint: "save the file as UTF-8",
      },
      at,
    };
  }
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let lo = 0;
  let hi = bytes.length;
  // The longest valid prefix, by bisection: decoding a prefix cut inside a character fails too,
  // so step back up to 3 bytes from the found boundary.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try {
      decoder.decode(bytes.subarray(0, mid));
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo;
}

function failedDocument(
  path: string,
  file: string,
  root: string | undefined,
  problems: DiagnosticInput[],
  byteOffset = 0,
  bytes?: Uint8Array,
): SpecDocument {
  const lines = new LineCounter();
  const doc: SpecDocument = {
    file,
    path,
    root: root ?? findProjectRoot(dirname(path)),
    format: formatOf(path),
    text: "",
    data: undefined,
    map: new SourceMap("", lines),
    problems: [],
    suppressions: scanSuppressions(""),
  };
  const pos = bytePosition(bytes, byteOffset);
  for (const p of problems) {
    const d: Diagnostic = {
      file,
      line: pos.line,
      column: pos.column,
      endLine: pos.line,
      endColumn: pos.column + 1,
      rule: p.rule,
      severity: p.severity,
      message: p.message,
    };
    if (p.hint) d.hint = p.hint;
    doc.problems.push(d);
  }
  return doc;
}

/** 1-based line and column (in bytes) of a byte offset. */
function bytePosition(
  bytes: Uint8Array | undefined,
  offset: number,
): { line: number; column: number } {
  if (!bytes) return { line: 1, column: 1 };
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function quoteKey(text: string, pos: readonly [number, number]): string {
  const key = text.slice(pos[0], pos[1]).trim();
  return key ? `\`${key.replace(/:$/, "")}\`` : "";
}

function syntaxMessage(err: YAMLError): string {
  return err.message.split("\n")[0]!.replace(/ at line \d+, column \d+$/, "");
}

function syntaxHint(err: YAMLError): string | undefined {
  switch (err.code) {
    case "TAB_AS_INDENT":
      return "indent with spaces";
    case "MULTIPLE_DOCS":
      return "one file holds one graph; move the other document to its own file";
    case "MISSING_CHAR":
      return "close the bracket or quote";
    default:
      return undefined;
  }
}

export type { Path };
