import { stat } from "node:fs/promises";
import { glob, isDynamicPattern } from "tinyglobby";

const SPEC_EXTENSIONS = "{yaml,yml,json}";
/** Files a directory or glob never yields: test fixtures for `graphspec test` and well-known non-spec JSON. */
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
    if (isDynamicPattern(arg)) {
      found = await glob(arg, {
        cwd,
        ignore: NOT_SPECS,
        onlyFiles: true,
        expandDirectories: false,
      });
    } else {
      const info = await stat(arg).catch(() => undefined);
      if (!info) found = [];
      else if (info.isDirectory()) {
        const dir = arg.replace(/\/+$/, "") || "/";
        found = await glob(`${escapeGlob(dir)}/**/*.${SPEC_EXTENSIONS}`, {
          cwd,
          ignore: NOT_SPECS,
          onlyFiles: true,
        });
      } else found = [arg];
    }
    if (found.length === 0) missing.push(arg);
    files.push(...found.sort());
  }
  return { files: [...new Set(files)], missing };
}

const escapeGlob = (path: string) => path.replace(/[*?[\]{}()!]/g, "\\$&");
