/**
 * The `Rule` interface every file of check/rules/ implements, kept out of rules/index.ts (the list
 * of rules) so that a rule imports it without importing, in a cycle, the list that imports it.
 */
import type { RuleName } from "../diagnostics/rule-catalog.js";
import type { CheckContext } from "./check-context.js";

/** A semantic rule: one file in check/rules/, one public name from the catalog. */
export interface Rule {
  name: RuleName;
  /** Runs the rule; reports through `ctx.report`. May be async (rules that load modules or subgraphs). */
  check(ctx: CheckContext): void | Promise<void>;
}
