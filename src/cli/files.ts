import { realpath as realpathCallback } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { BESIDE_SPECS_GLOBS } from "../spec/beside-specs.js";
import { isInside } from "../spec/inside-root.js";
import { findProjectRoot } from "../spec/project-root.js";
import { distinctEscapes, distinctFiles } from "./distinct-files.js";

const SPEC_FILES = "**/*.{yaml,yml,json}";

type Globbing = typeof import("tinyglobby");
let globbingModule: Promise<Globbing> | undefined;
/** tinyglobby loads when a directory or a glob is expanded: a spec named by its path never needs it. */
const globbing = (): Promise<Globbing> => (globbingModule ??= import("tinyglobby"));
/**
 * What expanding a directory or glob never yields: dependencies, dot-directories (.git, .github,
 * editor state), `*.test.*` fixtures for `graphspec test` and `*.recording.json` recordings, and
 * well-known non-spec JSON. They are
 * skipped only *below* what the user named: `graphspec validate .github/graphs` or an explicit
 * file path is always honoured.
 */
const NOT_SPECS = [
  "**/node_modules/**",
  "**/.*/**",
  ...BESIDE_SPECS_GLOBS,
  "**/package*.json",
  "**/tsconfig*.json",
];

/** A file or directory that leads out of the project through a symbolic link: reported, never read. */
export interface Escape {
  /** As the user would name it (relative to the working directory, like the files). */
  path: string;
  kind: "file" | "directory";
}

export interface ExpandResult {
  files: string[];
  /** Arguments that matched nothing. */
  missing: string[];
  escapes: Escape[];
}

/**
 * The project a path belongs to, for `path-escape`: the working directory's project when the path
 * is inside it — so a symbolic link in the repository cannot make a directory elsewhere count as
 * the project — else (a path named outside it on purpose) the path's own.
 */
async function realProjectRoot(abs: string, cwd: string): Promise<string> {
  const home = findProjectRoot(cwd);
  const root = isInside(home, abs) ? home : findProjectRoot(abs);
  return realpath(root).catch(() => root);
}

const leavesRoot = async (abs: string, realRoot: string): Promise<boolean> => {
  const real = await realpath(abs).catch(() => undefined);
  return real !== undefined && !isInside(realRoot, real);
};

/**
 * Expands file, directory and glob arguments into spec files, in a stable order. A file or
 * directory whose real path leaves the project (a symbolic link to `~/.docker/config.json`, to
 * `/`) is not read or searched: it is returned in `escapes`.
 */
export async function expandSpecPaths(
  args: readonly string[],
  cwd = process.cwd(),
): Promise<ExpandResult> {
  const files: string[] = [];
  const missing: string[] = [];
  const escapes: Escape[] = [];
  for (const arg of args) {
    const escapesBefore = escapes.length;
    // A path that exists is taken literally, even if it looks like a glob (`specs[1].yaml`).
    const abs = resolve(cwd, arg);
    const info = await stat(abs).catch(() => undefined);
    let found: string[];
    if (info) {
      const realRoot = await realProjectRoot(abs, cwd);
      if (await leavesRoot(abs, realRoot)) {
        escapes.push({ path: arg, kind: info.isDirectory() ? "directory" : "file" });
        continue;
      }
      found = info.isDirectory() ? await globUnder(arg, SPEC_FILES, cwd, realRoot, escapes) : [arg];
    } else if ((await globbing()).isDynamicPattern(arg)) {
      const { base, pattern } = splitGlob(arg, await globbing());
      const realRoot = await realProjectRoot(resolve(cwd, base), cwd);
      if (await leavesRoot(resolve(cwd, base), realRoot)) {
        escapes.push({ path: base, kind: "directory" });
        continue;
      }
      found = await globUnder(base, pattern, cwd, realRoot, escapes);
    } else found = [];
    // An argument that led only out of the project matched something: it is reported, not missing.
    if (found.length === 0 && escapes.length === escapesBefore) missing.push(arg);
    files.push(...found.sort());
  }
  // The same file reached twice (two spellings, overlapping globs, a link inside the project) is
  // checked once, and a link leading out is reported once.
  return {
    files: await distinctFiles(files, cwd),
    missing,
    escapes: await distinctEscapes(escapes, cwd),
  };
}

/**
 * Files matching `pattern` inside directory `base` (relative to `cwd` or absolute), named as
 * `base/...`. Symbolic links are followed while they stay in the project; a linked directory that
 * leads out is recorded in `escapes` and not searched, a linked file that does is recorded instead
 * of returned.
 */
async function globUnder(
  base: string,
  pattern: string,
  cwd: string,
  realRoot: string,
  escapes: Escape[],
): Promise<string[]> {
  const dir = resolve(cwd, base);
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) return [];
  const named = (path: string) => {
    const rel = relative(dir, path).split("\\").join("/");
    return base === "." || base === "" ? rel : join(base, rel);
  };
  // The crawler resolves every symbolic link it meets through this: one leading out of the
  // project becomes an error to it (so it skips the entry) and an escape to us.
  const guardedRealpath = (
    path: string,
    callback: (error: NodeJS.ErrnoException | null, resolved: string) => void,
  ) =>
    realpathCallback(path, (error, resolved) => {
      if (error || isInside(realRoot, resolved)) return callback(error, resolved);
      stat(resolved).then(
        (target) => {
          if (target.isDirectory()) {
            escapes.push({
              path: named(isAbsolute(path) ? path : resolve(dir, path)),
              kind: "directory",
            });
            callback(Object.assign(new Error("outside the project"), { code: "EACCES" }), "");
          } else callback(null, resolved);
        },
        (e: NodeJS.ErrnoException) => callback(e, ""),
      );
    });
  const found = await (await globbing()).glob(pattern, {
    cwd: dir,
    ignore: NOT_SPECS,
    onlyFiles: true,
    fs: { realpath: guardedRealpath as never },
  });
  const inside: string[] = [];
  for (const f of found) {
    const path = base === "." || base === "" ? f : join(base, f);
    if (await leavesRoot(resolve(cwd, path), realRoot)) escapes.push({ path, kind: "file" });
    else inside.push(path);
  }
  return inside;
}

/** Splits a glob into its literal leading directories and the rest: `a/b/**\/*.yaml` → `a/b`, `**\/*.yaml`. */
function splitGlob(arg: string, { isDynamicPattern }: Globbing): { base: string; pattern: string } {
  const parts = arg.split("/");
  let i = 0;
  while (i < parts.length - 1 && !isDynamicPattern(parts[i]!)) i++;
  const base = parts.slice(0, i).join("/") || (arg.startsWith("/") ? "/" : ".");
  return { base: unescapeGlob(base), pattern: parts.slice(i).join("/") };
}

/** A literal path segment written with glob escapes (`\[x]`) names the file without them. */
const unescapeGlob = (path: string) => path.replace(/\\([*?[\]{}()!])/g, "$1");
