/**
 * `validate`'s run cache (child specs read and checked, modules parsed, the lock) kept from one
 * check of an editor's text to the next, so a keystroke re-checks the edited text and not the
 * subgraphs and modules it names. Every entry's key names the files it was made from
 * (`graphspec:<kind>:<path>[\0<path>]`); the cache is emptied when one of them has changed on
 * disk (modification time, size, or appearing or disappearing) since it was read.
 */
import { statSync } from "node:fs";
import { isAbsolute, join } from "node:path";

/** The files an entry depends on, from its key. */
function filesOf(key: string): string[] {
  const m = /^graphspec:([a-z-]+):(.*)$/s.exec(key);
  if (!m) return [];
  const [, kind, rest] = m;
  const paths = rest!.split("\0").filter((p) => isAbsolute(p));
  // A folder's entry is made from one file in it; a folder is stamped too (a file added to it).
  if (kind === "lock") return paths.flatMap((p) => [p, join(p, "graphspec.lock.json")]);
  if (kind === "package-type") return paths.flatMap((p) => [p, join(p, "package.json")]);
  return paths;
}

/**
 * A file's stamp. Synchronous: a dozen stats take well under a millisecond, where as many
 * promises of fs/promises cost the check several (seen in a profile of bench/lsp.mjs).
 */
function stampOf(file: string): string {
  const s = statSync(file, { throwIfNoEntry: false });
  return s ? `${s.mtimeMs}:${s.size}` : "missing";
}

export class KeptCache {
  /** What `validate` is given as its `cache`. */
  readonly map = new Map<string, unknown>();
  private readonly stamps = new Map<string, string>();

  /** Empties the cache when a file an entry was made from has changed since it was stamped. */
  refresh(): void {
    for (const [file, stamp] of this.stamps) {
      if (stampOf(file) === stamp) continue;
      this.map.clear();
      this.stamps.clear();
      return;
    }
  }

  /** Stamps the files of the entries made since the last call (after a check). */
  record(): void {
    for (const key of this.map.keys())
      for (const file of filesOf(key))
        if (!this.stamps.has(file)) this.stamps.set(file, stampOf(file));
  }
}
