/** A document's module and graph references, resolved once per check and shared by the rules that report on them. */
import {
  DEFAULT_LOAD_TIMEOUT_MS,
  graphRefs,
  type InspectedRef,
  inspectRef,
  isolatedInspector,
  type LockRead,
  lockedInspector,
  type ModuleInspector,
  moduleRefs,
  type RefBase,
  type RefProblem,
  type ResolvedGraphRef,
  readLock,
  resolveGraphRef,
  type Shared,
  staticInspector,
} from "../modules/index.js";
import type { CheckContext } from "./check-context.js";

export const refBase = (ctx: CheckContext): RefBase => ({
  specPath: ctx.doc.path,
  root: ctx.doc.root,
  probes: ctx.options.probes,
});

export const sharedOf =
  (ctx: CheckContext): Shared =>
  (key, compute) =>
    ctx.shared(key, compute);

/**
 * The project's `graphspec.lock.json`, read once per run, when this check reads it: validate's
 * default (modules parsed, not loaded), unless `toolLock: false`. Undefined: not read, or none.
 */
export function projectLock(ctx: CheckContext): Promise<LockRead> {
  const { inspector, loadModules, toolLock } = ctx.options;
  if (inspector || loadModules !== undefined || toolLock === false)
    return Promise.resolve(undefined);
  return ctx.shared(`graphspec:lock:${ctx.doc.root}`, () => readLock(ctx.doc.root));
}

/** The inspector `loadModules` asks for: undefined means the files are not read at all. */
async function inspectorOf(ctx: CheckContext): Promise<ModuleInspector | undefined> {
  const { inspector, loadModules } = ctx.options;
  if (inspector) return inspector;
  if (loadModules === false) return undefined;
  if (loadModules === undefined) {
    const lock = await projectLock(ctx);
    return lock?.ok ? lockedInspector(lock.lock, staticInspector) : staticInspector;
  }
  const options = loadModules === true ? {} : loadModules;
  return isolatedInspector({
    timeout: options.timeout ?? DEFAULT_LOAD_TIMEOUT_MS,
    env: options.env ?? {},
  });
}

/** The document's module references: their files, and their exports as far as the run's inspector can tell. */
export function checkedModuleRefs(ctx: CheckContext): Promise<InspectedRef[]> {
  return ctx.memo("modules:refs", async () => {
    const inspector = await inspectorOf(ctx);
    return Promise.all(
      moduleRefs(ctx.spec).map((ref) => inspectRef(refBase(ctx), ref, inspector, sharedOf(ctx))),
    );
  });
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
      replacement: problem.replacement,
      at: problem.at ?? "value",
    });
  }
}
