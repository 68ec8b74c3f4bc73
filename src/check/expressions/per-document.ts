/**
 * Every expression in a spec — where it stands, what it may read, what type the place needs —
 * and what is wrong with each, computed once per document and shared by the three expression
 * rules (`expression-syntax`, `expression-type`, `unknown-state-key`).
 *
 * This is their memoized entry point: collecting (sites.ts) and checking (check-sites.ts) know
 * nothing of the memo.
 */
import { ExprEnvironment } from "../../expr/index.js";
import type { CheckContext } from "../check-context.js";
import { checkSite, naturalResultFindings } from "./check-sites.js";
import type { Finding } from "./finding.js";
import { collectSites } from "./sites.js";

/** Everything wrong with the spec's expressions and the values written with them. */
export const expressionFindings = (ctx: CheckContext): readonly Finding[] =>
  ctx.memo("expr:findings", () => {
    // The spec's expression environment, made once per document.
    const env = ExprEnvironment.for({ state: ctx.spec.state, context: ctx.spec.context });
    const { sites, findings } = collectSites(ctx, env);
    const out = [...findings];
    for (const site of sites) out.push(...checkSite(ctx, env, site));
    out.push(...naturalResultFindings(ctx, env));
    return out;
  });
