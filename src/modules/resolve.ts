/**
 * The one place that turns a spec's file reference into a file, and a `{ module, export }` reference
 * into an export — or into the problem that stops it (`path-escape`, `unknown-module`,
 * `unknown-export`). The check rules report these problems (`inspectRef`, with whichever inspector
 * the run chose); the compile stage turns them into errors and uses the values (`resolveRef`).
 *
 * Nothing here imports `@langchain/*`: user modules may, and they load only when asked to.
 */
import { type ExportFacts, exportShape } from "./export-facts.js";
import { findExport, shapeProblem } from "./exports.js";
import { resolveFile } from "./files.js";
import { loadFailure, loadModule } from "./load.js";
import type { ModuleInspector } from "./module-report.js";
import type { GraphRef, ModuleRef, RefBase, RefProblem } from "./refs.js";
import type { Shared } from "./shared.js";

export interface InspectedRef {
  ref: ModuleRef;
  /** The module file, when it resolved inside the project. */
  abs?: string;
  problem?: RefProblem;
  /** What the export is, when the module was loaded and the export fits its use. */
  facts?: ExportFacts;
}

/** The file a module reference names: a catalog's tool names its module relative to the catalog file. */
export const resolveModuleFile = (base: RefBase, ref: ModuleRef) =>
  resolveFile(
    ref.from ? { ...base, specPath: ref.from, fromCatalog: true } : base,
    ref.module,
    "module",
    ref.path,
  );

/**
 * Checks one reference for the checker: its file, then — unless `inspector` is undefined (files
 * only) — its export, as far as the inspector can tell.
 */
export async function inspectRef(
  base: RefBase,
  ref: ModuleRef,
  inspector: ModuleInspector | undefined,
  shared: Shared,
): Promise<InspectedRef> {
  const file = await resolveModuleFile(base, ref);
  if (!file.ok) return { ref, problem: file.problem };
  const abs = file.abs;
  if (!inspector) return { ref, abs };
  const report = await inspector(abs, base.root, shared);
  if (!report.ok)
    return {
      ref,
      abs,
      problem: { rule: "unknown-module", path: ref.path, ...report.describe(ref.module) },
    };
  const found = findExport(ref, report.exports);
  if (found === undefined) return { ref, abs };
  if ("rule" in found) return { ref, abs, problem: found };
  const facts = await report.exports.facts?.(found.name);
  if (!facts) return { ref, abs };
  const problem = shapeProblem(ref, found.name, facts);
  return problem ? { ref, abs, problem } : { ref, abs, facts };
}

export interface ResolvedRef {
  ref: ModuleRef;
  abs?: string;
  problem?: RefProblem;
  /** The export, when the module was loaded and the export has the right shape. */
  loaded?: { exportName: string; value: unknown };
}

/** Resolves one reference to its file and its export's value (importing the module here): for compile. */
export async function resolveRef(
  base: RefBase,
  ref: ModuleRef,
  options: { shared: Shared },
): Promise<ResolvedRef> {
  const file = await resolveModuleFile(base, ref);
  if (!file.ok) return { ref, problem: file.problem };
  const abs = file.abs;
  const loaded = await loadModule(abs, options.shared);
  if (!loaded.ok) {
    const failure = loadFailure(loaded.error, abs, base.root);
    return {
      ref,
      abs,
      problem: { rule: "unknown-module", path: ref.path, ...failure.describe(ref.module) },
    };
  }
  const found = findExport(ref, { names: Object.keys(loaded.exports), complete: true });
  if (!found) return { ref, abs };
  if ("rule" in found) return { ref, abs, problem: found };
  const value = loaded.exports[found.name];
  const problem = shapeProblem(ref, found.name, exportShape(value));
  if (problem) return { ref, abs, problem };
  return { ref, abs, loaded: { exportName: found.name, value } };
}

export interface ResolvedGraphRef {
  ref: GraphRef;
  abs?: string;
  problem?: RefProblem;
}

/** Resolves a subgraph's `graph:` to a spec file inside the project. */
export async function resolveGraphRef(base: RefBase, ref: GraphRef): Promise<ResolvedGraphRef> {
  const file = await resolveFile(base, ref.graph, "graph", ref.path);
  return file.ok ? { ref, abs: file.abs } : { ref, problem: file.problem };
}
