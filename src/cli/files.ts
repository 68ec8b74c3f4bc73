import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { glob, isDynamicPattern } from "tinyglobby";

const SPEC_FILES = "**/*.{yaml,yml,json}";
/**
 * What expanding a directory or glob never yields: dependencies, dot-directories (.git, .github,
 * editor state), `*.test.*` fixtures for `graphspec test`, and well-known non-spec JSON. They are
 * skipped only *below* what the user named: `graphspec validate .github/graphs` or an explicit
 * file path is always honoured.
 */
const NOT_SPECS = [
  "**/node_modules/**",
  "**/.*/**",
  "**/*.test.{yaml,yml,json}",
  "**/package*.json",
  "**/tsconfig*.json",
];

export interface ExpandResult {
  files: string[];
  /** Arguments that matched nothing. */
  missing: string[];
}

/** Expands file, directory and glob arguments into spec files, in a stable order. */
export async function expandSpecPaths(
  args: readonly string[],
  cwd = process.cwd(),
): Promise<ExpandResult> {
  const files: string[] = [];
  const missing: string[] = [];
  for (const arg of args) {
    let found: string[];
    // A path that exists is taken literally, even if it looks like a glob (`specs[1].yaml`).
    const info = await stat(resolve(cwd, arg)).catch(() => undefined);
    if (info?.isDirectory()) found = await globUnder(arg, SPEC_FILES, cwd);
    else if (info) found = [arg];
    else if (isDynamicPattern(arg)) {
      const { base, pattern } = splitGlob(arg);
      found = await globUnder(base, pattern, cwd);
    } else found = [];
    if (found.length === 0) missing.push(arg);
    files.push(...found.sort());
  }
  return { files: [...new Set(files)], missing };
}

/** Files matching `pattern` inside directory `base` (relative to `cwd` or absolute), named as `base/...`. */
async function globUnder(base: string, pattern: string, cwd: string): Promise<string[]> {
  const dir = resolve(cwd, base);
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) return [];
  const found = await glob(pattern, { cwd: dir, ignore: NOT_SPECS, onlyFiles: true });
  return found.map((f) => (base === "." || base === "" ? f : join(base, f)));
}

/** Splits a glob into its literal leading directories and the rest: `a/b/**\/*.yaml` → `a/b`, `**\/*.yaml`. */
function splitGlob(arg: string): { base: string; pattern: string } {
  const parts = arg.split("/");
  let i = 0;
  while (i < parts.length - 1 && !isDynamicPattern(parts[i]!)) i++;
  const base = parts.slice(0, i).join("/") || (arg.startsWith("/") ? "/" : ".");
  return { base: unescapeGlob(base), pattern: parts.slice(i).join("/") };
}

/** A literal path segment written with glob escapes (`\[x]`) names the file without them. */
const unescapeGlob = (path: string) => path.replace(/\\([*?[\]{}()!])/g, "$1");
