/**
 * The one place that turns a spec's file reference into a file, and a `{ module, export }` reference
 * into a value — or into the problem that stops it (`path-escape`, `unknown-module`, `unknown-export`).
 * The check rules report these problems; the compile stage turns them into errors.
 *
 * Nothing here imports `@langchain/*`: user modules may, and they load only when asked to.
 */
import { exportPath, findExport, shapeProblem } from "./exports.js";
import { resolveFile } from "./files.js";
import { loadErrorHint, loadErrorSummary, loadModule, type Shared } from "./load.js";
import type { GraphRef, ModuleRef, RefBase, RefProblem } from "./refs.js";

export interface ResolvedRef {
  ref: ModuleRef;
  /** The module file, when it resolved inside the project. */
  abs?: string;
  problem?: RefProblem;
  /** The export, when the module was loaded and the export has the right shape. */
  loaded?: { exportName: string; value: unknown };
}

export interface ResolveOptions {
  /** Import the module and check the export. Default true. */
  load?: boolean;
  shared: Shared;
}

/** Resolves one reference to its file and, when loading, to its export: or to the problem that stops it. */
export async function resolveRef(
  base: RefBase,
  ref: ModuleRef,
  options: ResolveOptions,
): Promise<ResolvedRef> {
  const file = await resolveFile(base, ref.module, "module", ref.path);
  if (!file.ok) return { ref, problem: file.problem };
  if (options.load === false) return { ref, abs: file.abs };
  const loaded = await loadModule(file.abs, options.shared);
  if (!loaded.ok) {
    const hint = loadErrorHint(loaded.error);
    return {
      ref,
      abs: file.abs,
      problem: {
        rule: "unknown-module",
        path: ref.path,
        message: `module \`${ref.module}\` failed to load: ${loadErrorSummary(loaded.error, file.abs, ref.module, base.root)}`,
        ...(hint ? { hint } : {}),
      },
    };
  }
  const found = findExport(ref, loaded.exports);
  if ("rule" in found) return { ref, abs: file.abs, problem: found };
  let problem: RefProblem | undefined;
  try {
    problem = shapeProblem(ref, found.name, found.value);
  } catch (e) {
    // An export whose properties throw when read (a Proxy, a getter) cannot be used either.
    problem = {
      rule: "unknown-export",
      path: exportPath(ref),
      message: `export \`${found.name}\` of module \`${ref.module}\` throws when it is read: ${firstLine(e)}`,
      hint: "export a LangChain tool or a plain function",
    };
  }
  if (problem) return { ref, abs: file.abs, problem };
  return { ref, abs: file.abs, loaded: { exportName: found.name, value: found.value } };
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

const firstLine = (e: unknown): string =>
  (e instanceof Error ? e.message : String(e)).split("\n")[0] ?? "";
