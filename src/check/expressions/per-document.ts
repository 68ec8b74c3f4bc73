/**
 * Every expression in a spec — where it stands, what it may read, what type the place needs —
 * and what is wrong with each, computed once per document and shared by the three expression
 * rules (`expression-syntax`, `expression-type`, `unknown-state-key`).
 *
 * These are the memoized entry points: the collecting (sites.ts) and the checking
 * (check-sites.ts) know nothing of the memos.
 */
import { ExprEnvironment } from "../../expr/index.js";
import type { CheckContext } from "../check-context.js";
import { checkSite, naturalResultFindings } from "./check-sites.js";
import type { Finding } from "./finding.js";
import { collectSites, type ExprSite, type SiteCollector } from "./sites.js";

/** The spec's expression environment, made once per document. */
export const exprEnvironment = (ctx: CheckContext): ExprEnvironment =>
  ctx.memo("expr:environment", () =>
    ExprEnvironment.for({ state: ctx.spec.state, context: ctx.spec.context }),
  );

const collected = (ctx: CheckContext): SiteCollector =>
  ctx.memo("expr:collected", () => collectSites(ctx, exprEnvironment(ctx)));

/** Every expression site of the spec, in spec order. */
export const expressionSites = (ctx: CheckContext): readonly ExprSite[] => collected(ctx).sites;

/** Everything wrong with the spec's expressions and the values written with them. */
export const expressionFindings = (ctx: CheckContext): readonly Finding[] =>
  ctx.memo("expr:findings", () => {
    const { sites, findings } = collected(ctx);
    const out = [...findings];
    const env = exprEnvironment(ctx);
    for (const site of sites) out.push(...checkSite(ctx, env, site));
    out.push(...naturalResultFindings(ctx, env));
    return out;
  });
