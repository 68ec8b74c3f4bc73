/**
 * One file named several ways — `graphs/a.yaml`, `./graphs/a.yaml`, an absolute path, a symbolic
 * link inside the project, a hard link, another letter case on a case-insensitive disk, two
 * overlapping globs — is checked and reported once, under the first name given, so duplicates
 * cannot push a passing `--max-warnings` over.
 */
import { realpath, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

/**
 * `names` (relative to `cwd` or absolute) without the later names of a file already listed. A file
 * is known by its device and inode, which every spelling and link of it shares; one that cannot be
 * stat-ed (gone meanwhile) by its absolute path, and is left for the reader to report.
 */
export async function distinctFiles(names: readonly string[], cwd: string): Promise<string[]> {
  const ids = await Promise.all(
    names.map(async (name) => {
      const abs = resolve(cwd, name);
      const info = await stat(abs, { bigint: true }).catch(() => undefined);
      return info ? `${info.dev}:${info.ino}` : abs;
    }),
  );
  const seen = new Set<string>();
  return names.filter((_, i) => {
    if (seen.has(ids[i]!)) return false;
    seen.add(ids[i]!);
    return true;
  });
}

/**
 * `path-escape` findings without repeats: a link reached by two arguments (or twice by one) is one
 * problem. Links are told apart by where they are — their folder's real path and their own name —
 * not by what they point to: two links to the same outside file are two things to fix.
 */
export async function distinctEscapes<T extends { path: string }>(
  escapes: readonly T[],
  cwd: string,
): Promise<T[]> {
  const ids = await Promise.all(
    escapes.map(async (e) => {
      const abs = resolve(cwd, e.path);
      const folder = await realpath(dirname(abs)).catch(() => dirname(abs));
      return join(folder, basename(abs));
    }),
  );
  const seen = new Set<string>();
  return escapes.filter((_, i) => {
    if (seen.has(ids[i]!)) return false;
    seen.add(ids[i]!);
    return true;
  });
}
