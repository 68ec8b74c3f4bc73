/**
 * The one place that turns a spec's file reference into a file, and a `{ module, export }` reference
 * into a value — or into the problem that stops it (`path-escape`, `unknown-module`, `unknown-export`).
 * The check rules report these problems; the compile stage turns them into errors.
 *
 * Nothing here imports `@langchain/*`: user modules may, and they load only when asked to.
 */
import type { CheckContext } from "./context.js";
import { exportPath, findExport, shapeProblem } from "./modules/exports.js";
import { resolveFile } from "./modules/files.js";
import { loadErrorHint, loadErrorSummary, loadModule, type Shared } from "./modules/load.js";
import {
  type GraphRef,
  graphRefs,
  type ModuleRef,
  moduleRefs,
  type RefBase,
  type RefProblem,
} from "./modules/refs.js";

export { isLangChainTool } from "./modules/exports.js";
export { GRAPH_EXTENSIONS, MODULE_EXTENSIONS, resolveFile } from "./modules/files.js";
export { loadModule, type Shared, sharedIn } from "./modules/load.js";
export * from "./modules/refs.js";

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

// ---------------------------------------------------------------------------------------------
// In a check: resolved once per document, shared by the rules that report on them

export const refBase = (ctx: CheckContext): RefBase => ({
  specPath: ctx.doc.path,
  root: ctx.doc.root,
});

export const sharedOf =
  (ctx: CheckContext): Shared =>
  (key, compute) =>
    ctx.shared(key, compute);

/** The document's module references, resolved (and loaded unless `loadModules: false`). */
export function checkedModuleRefs(ctx: CheckContext): Promise<ResolvedRef[]> {
  return ctx.memo("modules:refs", () =>
    Promise.all(
      moduleRefs(ctx.spec).map((ref) =>
        resolveRef(refBase(ctx), ref, {
          load: ctx.options.loadModules !== false,
          shared: sharedOf(ctx),
        }),
      ),
    ),
  );
}

/** The document's subgraph references, resolved to files. */
export function checkedGraphRefs(ctx: CheckContext): Promise<ResolvedGraphRef[]> {
  return ctx.memo("modules:graphs", () =>
    Promise.all(graphRefs(ctx.spec).map((ref) => resolveGraphRef(refBase(ctx), ref))),
  );
}

/** Reports the document's reference problems of one rule (each rule reports its own). */
export async function reportRefProblems(
  ctx: CheckContext,
  rule: RefProblem["rule"],
): Promise<void> {
  const resolved = [...(await checkedModuleRefs(ctx)), ...(await checkedGraphRefs(ctx))];
  for (const { problem } of resolved) {
    if (problem?.rule !== rule) continue;
    ctx.report(rule, problem.path, {
      message: problem.message,
      hint: problem.hint,
      at: problem.at ?? "value",
    });
  }
}

const firstLine = (e: unknown): string =>
  (e instanceof Error ? e.message : String(e)).split("\n")[0] ?? "";
