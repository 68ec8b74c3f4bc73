/**
 * What checking a module file tells: its export names (and, when it was loaded, what each export
 * is), or why it cannot be used. Three inspectors produce it — by parsing (static/), by loading in
 * a separate process (isolated/), by loading in this process (load.ts) — and the checker reads it
 * the same way whichever ran.
 */
import type { ExportFacts } from "./export-facts.js";
import type { ExportNames } from "./exports.js";
import type { Shared } from "./shared.js";

export interface ModuleExports extends ExportNames {
  /** What an export is; only when the module was loaded (parsing cannot tell). */
  facts?(name: string): Promise<ExportFacts | undefined>;
}

export type ModuleReport =
  | { ok: true; exports: ModuleExports }
  | {
      ok: false;
      /** The diagnostic, for a reference that names the module as `ref` (the text in the spec). */
      describe(ref: string): { message: string; hint?: string };
    };

/** Checks one module file (absolute path) of a project; cached in `shared` by the implementation. */
export type ModuleInspector = (abs: string, root: string, shared: Shared) => Promise<ModuleReport>;
