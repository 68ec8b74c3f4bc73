/** Whether a path stays inside a directory: the rule behind `path-escape` for specs and their references. */
import type { Stats } from "node:fs";
import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import type { PathProbes } from "./path-probes.js";

/**
 * Whether `path` is `root` or lies below it, lexically (resolve symbolic links first where they
 * matter). `root` itself is the empty relative path; an absolute one is another drive (Windows).
 */
export const isInside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
};

/** Where `abs` (its `lstat` is `link`) really is; undefined when it does not exist. */
async function realPathOf(
  abs: string,
  probes: PathProbes,
  link: Stats | undefined,
): Promise<string | undefined> {
  if (!link) return undefined;
  const folder = link.isSymbolicLink() ? undefined : await probes.realpath(dirname(abs));
  return folder !== undefined
    ? join(folder, basename(abs))
    : await realpath(abs).catch(() => undefined);
}

/**
 * Why the file at `abs` is not inside the project `root` — it lies elsewhere, or a symbolic link
 * leads out of it — or undefined when it is inside (or does not exist: that is for `io` to say).
 * A spec that leads out is never read: its content (a token in `~/.docker/config.json`) must not
 * reach the output.
 */
export async function escapesRoot(
  abs: string,
  root: string,
  probes: PathProbes,
  link: Stats | undefined,
): Promise<string | undefined> {
  if (!isInside(root, abs)) return "is outside the project root";
  const real = await realPathOf(abs, probes, link);
  if (real === undefined) return undefined;
  const realRoot = (await probes.realpath(root)) ?? root;
  return isInside(realRoot, real)
    ? undefined
    : "is a symbolic link to a file outside the project root";
}

export function ioReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  const reasons: Record<string, string> = {
    ENOENT: "no such file",
    EACCES: "permission denied",
    EPERM: "permission denied",
    ENOTDIR: "a part of the path is not a directory",
    ELOOP: "too many symbolic links",
  };
  return code ? `${reasons[code] ?? "error"} (${code})` : String((e as Error)?.message ?? e);
}
