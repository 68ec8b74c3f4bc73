/** A document's module and graph references, resolved once per check and shared by the rules that report on them. */
import {
  graphRefs,
  moduleRefs,
  type RefBase,
  type RefProblem,
  type ResolvedGraphRef,
  type ResolvedRef,
  resolveGraphRef,
  resolveRef,
  type Shared,
} from "../modules/index.js";
import type { CheckContext } from "./check-context.js";

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
