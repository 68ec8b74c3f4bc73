/**
 * validate's default inspector when the project has a `graphspec.lock.json`: a module whose
 * content still has the hash the lock recorded is answered from the lock — its exports and what
 * each is, a tool's argument schema included — as if it had been loaded; any other module is
 * parsed as before. Nothing is run either way.
 */
import type { ModuleInspector } from "../module-report.js";
import { lockKey, type ToolLock } from "./lock-file.js";
import { moduleHash } from "./module-hash.js";

export function lockedInspector(lock: ToolLock, fallback: ModuleInspector): ModuleInspector {
  return async (abs, root, shared) => {
    const entry = lock.modules.get(lockKey(root, abs));
    if (!entry || (await moduleHash(abs, root, shared)) !== entry.sha256)
      return fallback(abs, root, shared);
    return {
      ok: true,
      exports: {
        names: [...entry.exports.keys()],
        complete: true,
        facts: async (name) => entry.exports.get(name),
      },
    };
  };
}
