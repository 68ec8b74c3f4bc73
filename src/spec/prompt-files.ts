/**
 * Prompts in their own files: `system: { file: prompts/triage.md }` in an `llm` or `agent` node.
 * A spec read from a file has each such file read once, here (read, never run; inside the project;
 * bounded in size), its text put in the data in place of `{ file }` — so checking, compiling and
 * running see a template as if written inline — and kept in `doc.prompts`, so findings inside it
 * are reported in the prompt file at its own line and column (document.ts `locateSpan`).
 */
import { lstat, readFile, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { RuleName } from "../diagnostics/rule-catalog.js";
import { isObject } from "./data.js";
import { decode } from "./decode.js";
import { diagnosticAtPath, type PromptFile, type SpecDocument } from "./document.js";
import { escapesRoot, ioReason } from "./inside-root.js";
import type { PathProbes } from "./path-probes.js";
import { type Path, SourceMap } from "./source-map.js";

/** Bytes in one prompt file: far more than a reviewed prompt needs, bounded like a spec. */
export const MAX_PROMPT_BYTES = 256 * 1024;
/**
 * Characters of prompt text one spec takes from files, counted per prompt naming one: each is
 * checked and compiled on its own, so one file named by 10,000 nodes would otherwise cost as much
 * as 10,000 files (an inline prompt is bounded by the spec's own size).
 */
export const MAX_PROMPT_TOTAL = 4 * 1024 * 1024;

/** The node kinds whose prompts may name a file, and those prompts (schema `PromptText`). */
const PROMPT_KINDS = new Set(["llm", "agent"]);
export const PROMPT_FIELDS = ["system", "prompt"] as const;

/** A prompt naming its file, as the data holds it before (or without) reading. */
export interface PromptRef {
  path: Path;
  /** The `file:` as written. */
  ref: string;
}

/** Every prompt still written as `{ file }` in spec data of any shape. */
export function promptFileRefs(data: unknown): PromptRef[] {
  const nodes = isObject(data) && isObject(data.nodes) ? data.nodes : {};
  const out: PromptRef[] = [];
  for (const [name, node] of Object.entries(nodes)) {
    if (!isObject(node) || !PROMPT_KINDS.has(node.kind as string)) continue;
    for (const field of PROMPT_FIELDS) {
      const value = node[field];
      // Exactly `{ file: PATH }`: any other shape is left for the schema check to name.
      if (!isObject(value) || typeof value.file !== "string" || !value.file) continue;
      if (Object.keys(value).length === 1)
        out.push({ path: ["nodes", name, field], ref: value.file });
    }
  }
  return out;
}

type Read = { text: string } | { rule: RuleName; message: string; hint?: string };

/**
 * Reads the prompt files `doc` names, in document order: each one's text replaces its `{ file }`
 * in `doc.data` and is recorded in `doc.prompts`. A file that cannot be used (missing, outside the
 * project, too large, not text) stays `{ file }` and is a problem at the spec's `file:` value.
 */
export async function attachPrompts(doc: SpecDocument, probes: PathProbes): Promise<void> {
  const prompts: PromptFile[] = [];
  doc.prompts = prompts;
  // Past the spec's text and its catalog's: spans there are in a prompt file.
  let base = doc.map.text.length + 1;
  // One read per file, however many prompts name it: a spec naming one file 10,000 times holds
  // its text once (the entries share the string and its source map).
  const reads = new Map<string, Promise<Read>>();
  const maps = new Map<string, SourceMap>();
  let taken = 0;
  for (const { path, ref } of promptFileRefs(doc.data)) {
    const abs = resolve(dirname(doc.path), ref);
    const file = join(dirname(doc.file), ref).split("\\").join("/");
    if (!reads.has(abs)) reads.set(abs, readPrompt(abs, doc.root, probes));
    let read = await reads.get(abs)!;
    if ("text" in read && taken + read.text.length > MAX_PROMPT_TOTAL)
      read = {
        rule: "resource-limit",
        message: `would bring the prompt text this spec takes from files to ${taken + read.text.length} characters; a spec may take at most ${MAX_PROMPT_TOTAL} (counted for each prompt naming a file)`,
        hint: "name fewer prompt files, or write the text once into state and read it from there",
      };
    if (!("text" in read)) {
      doc.problems.push(
        diagnosticAtPath(doc, [...path, "file"], {
          rule: read.rule,
          severity: "error",
          message: `prompt file \`${ref}\` ${read.message}`,
          hint: read.hint,
        }),
      );
      continue;
    }
    const text = read.text;
    taken += text.length;
    const map = maps.get(abs) ?? new SourceMap(text);
    maps.set(abs, map);
    prompts.push({ path, ref, abs, file, text, map, base });
    base += text.length + 1;
    const node = (doc.data as { nodes: Record<string, Record<string, unknown>> }).nodes[path[1]!]!;
    node[path[2]!] = text;
  }
}

async function readPrompt(abs: string, root: string, probes: PathProbes): Promise<Read> {
  const link = await lstat(abs).catch(() => undefined);
  const outside = await escapesRoot(abs, root, probes, link);
  if (outside)
    return {
      rule: "path-escape",
      message: `${outside}; it was not read`,
      hint: "keep prompt files inside the project, e.g. in a `prompts/` folder beside the spec",
    };
  if (!link)
    return {
      rule: "prompt-file",
      message: "does not exist",
      hint: "create it, or fix the path: it is relative to the spec's folder",
    };
  try {
    const info = link.isSymbolicLink() ? await stat(abs) : link;
    if (!info.isFile())
      return {
        rule: "prompt-file",
        message: info.isDirectory() ? "is a directory" : "is not a regular file",
        hint: "name a text file, e.g. `prompts/triage.md`",
      };
    if (info.size > MAX_PROMPT_BYTES)
      return {
        rule: "resource-limit",
        message: `is ${info.size} bytes; a prompt file may have at most ${MAX_PROMPT_BYTES}`,
        hint: "shorten it, or move reference material into a tool the model can call",
      };
    const bytes = await readFile(abs);
    // Grown since `stat`: the bound holds for what was read.
    if (bytes.length > MAX_PROMPT_BYTES)
      return {
        rule: "resource-limit",
        message: `is ${bytes.length} bytes; a prompt file may have at most ${MAX_PROMPT_BYTES}`,
      };
    const decoded = decode(bytes);
    if ("error" in decoded)
      return {
        rule: "encoding",
        message: `is not text: ${decoded.error.message.replace(/, not a YAML or JSON text$/, "")}`,
        hint: "save it as UTF-8 text",
      };
    // A BOM is no part of the prompt.
    return { text: decoded.text.startsWith("\uFEFF") ? decoded.text.slice(1) : decoded.text };
  } catch (e) {
    return { rule: "prompt-file", message: `cannot be read: ${ioReason(e)}` };
  }
}
