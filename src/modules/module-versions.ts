/**
 * Loading a module again after its file changed, in the same process. ESM caches a module by its
 * URL for the life of the process, so a new version is imported under a new URL: the file's URL
 * with `?v=<hash of its content>`. Versions are keyed by content, so saving a file unchanged (or
 * back to an earlier content) reuses the version already loaded: the memory kept is one module
 * record per distinct content of each referenced file, never one per reload.
 *
 * Only the referenced file itself is re-evaluated: the modules it imports keep their first URL
 * (and version). TypeScript goes through the process's one tsx registration (load.ts says why).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { importModule, importUrl, type LoadedModule } from "./load.js";

const importVersion = (abs: string, version: string): Promise<Record<string, unknown>> =>
  importUrl(abs, `${pathToFileURL(abs).href}?v=${version}`);

export interface ModuleVersions {
  /** The module as its file reads now: the version already loaded for this content, or a new one. */
  load(abs: string): Promise<LoadedModule>;
  /** How many versions are held (all files together): the bound on what reloads keep in memory. */
  readonly size: number;
}

/**
 * The versions of the modules a process has loaded, by file and content. The first content seen
 * of a file is imported under its plain URL (as a run without reload would), later ones under
 * `?v=<hash>`.
 */
export function moduleVersions(): ModuleVersions {
  const versions = new Map<string, Promise<LoadedModule>>();
  const firstSeen = new Map<string, string>();
  /** Failed loads per file: ESM keeps a failed URL failed, so a retry of the same content needs a new one. */
  const failures = new Map<string, number>();
  return {
    async load(abs) {
      let hash: string;
      try {
        hash = createHash("sha256")
          .update(await readFile(abs))
          .digest("hex")
          .slice(0, 16);
      } catch (error) {
        return { ok: false, error };
      }
      const key = `${abs}\0${hash}`;
      let loaded = versions.get(key);
      if (!loaded) {
        if (!firstSeen.has(abs)) firstSeen.set(abs, hash);
        const failed = failures.get(abs) ?? 0;
        const plain = firstSeen.get(abs) === hash && failed === 0;
        loaded = (plain ? importModule(abs) : importVersion(abs, `${hash}.${failed}`)).then(
          (exports): LoadedModule => ({ ok: true, exports }),
          (error: unknown): LoadedModule => {
            // Not kept: the next load tries again (a missing package may have been installed).
            versions.delete(key);
            failures.set(abs, failed + 1);
            return { ok: false, error };
          },
        );
        versions.set(key, loaded);
      }
      return loaded;
    },
    get size() {
      return versions.size;
    },
  };
}
