/**
 * Loading a module again after its file changed, in the same process. ESM caches a module by its
 * URL for the life of the process, so a new version is imported under a new URL: the file's URL
 * with `?v=<hash of its content>`. Versions are keyed by content, so saving a file unchanged (or
 * back to an earlier content) reuses the version already loaded: the memory kept is one module
 * record per distinct content of each referenced file, never one per reload.
 *
 * Only the referenced file itself is re-evaluated: the modules it imports keep their first URL
 * (and version). TypeScript goes through one tsx registration for all versions (tsx's `tsImport`
 * would register a new loader, a new namespace and a new copy of every dependency on each call).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { pathToFileURL } from "node:url";
import { importModule, type LoadedModule } from "./load.js";

const TYPESCRIPT = new Set([".ts", ".mts", ".cts"]);

type TsApi = { import: (specifier: string, parentURL: string) => Promise<unknown> };
let tsApi: Promise<TsApi> | undefined;
/** One tsx registration for every reloaded TypeScript version (tsx loads only when one is reloaded). */
const typescript = (): Promise<TsApi> => {
  tsApi ??= import("tsx/esm/api").then(
    (m) => m.register({ namespace: "graphspec-reload" }) as unknown as TsApi,
  );
  return tsApi;
};

async function importVersion(abs: string, version: string): Promise<Record<string, unknown>> {
  const url = `${pathToFileURL(abs).href}?v=${version}`;
  if (TYPESCRIPT.has(extname(abs).toLowerCase()))
    return (await (await typescript()).import(url, import.meta.url)) as Record<string, unknown>;
  return (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
}

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
