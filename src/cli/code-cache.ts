/**
 * Where V8's code cache of dist/cli/validate.cjs is kept between runs: V8's compiled code of the
 * functions a run used, so the next run skips parsing and compiling them. Node ≥ 22.1 keeps such a
 * cache for the modules it loads (`module.enableCompileCache()`); Node 20 has none, and neither
 * covers a script run with `node:vm`, so this is ours, following Node's conventions:
 * NODE_COMPILE_CACHE names the folder (default: the OS temp folder), NODE_DISABLE_COMPILE_CACHE=1
 * turns it off.
 *
 * V8 checks a cache's V8 version and flags but of the source only its length, so an entry is named
 * by a hash of the script's content as well as Node's version and the CPU. Loading code cache runs
 * it, so the folder must be this user's alone: it is made private (0700) and an entry is read only
 * from a folder this user owns that nobody else can write. Every failure means "no cache".
 */
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface CodeCache {
  /** The cached data, when there is an entry for this script on this Node. */
  data: Buffer | undefined;
  /** Stores `data` for the next run; never throws. */
  save(data: Buffer): void;
}

const NONE: CodeCache = { data: undefined, save: () => {} };

/** The cache entry of the script whose content hash is `hash` (none without one). */
export function codeCache(hash: string | undefined): CodeCache {
  if (!hash || process.env.NODE_DISABLE_COMPILE_CACHE === "1") return NONE;
  const uid = process.getuid?.();
  const dir = join(
    process.env.NODE_COMPILE_CACHE || tmpdir(),
    uid === undefined ? "graphspec" : `graphspec-${uid}`,
  );
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const folder = lstatSync(dir);
    // Someone else's folder (made before us, or a symbolic link to one): their code, not ours.
    if (!folder.isDirectory() || (uid !== undefined && (folder.uid !== uid || folder.mode & 0o022)))
      return NONE;
  } catch {
    return NONE;
  }
  const file = join(dir, `${hash}-${process.version}-${process.arch}.v8`);
  let data: Buffer | undefined;
  try {
    data = readFileSync(file);
  } catch {}
  return {
    data,
    save(next) {
      // Written aside and renamed: a run that starts meanwhile reads the old entry or the new one,
      // never half of one.
      const aside = `${file}.${process.pid}`;
      try {
        writeFileSync(aside, next, { mode: 0o600 });
        renameSync(aside, file);
      } catch {}
    },
  };
}
