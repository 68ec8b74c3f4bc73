/**
 * Model options that read the run's `context` (a tenant's `api_key`, its `user`, a header): such a
 * model is set up for each run from that run's context, never shared between runs.
 */
import { isTemplate, parseTemplate } from "../../expr/index.js";
import { isObject } from "../../spec/data.js";

/** Whether a template reads `context` (in any of its `${{ }}` parts). */
export function readsContext(template: string): boolean {
  if (!isTemplate(template)) return false;
  try {
    return parseTemplate(template).parts.some(
      (p) => p.kind === "expr" && /\bcontext\b/.test(p.source),
    );
  } catch {
    return false;
  }
}

/** Whether any string of a model's declaration (at any depth) reads `context`. */
export function readsRun(decl: unknown): boolean {
  if (typeof decl === "string") return readsContext(decl);
  if (Array.isArray(decl)) return decl.some(readsRun);
  if (isObject(decl)) return Object.values(decl).some(readsRun);
  return false;
}

/** What a per-run option is set to when the model is set up at compile, before any run. */
export const NOT_YET_RUN = "graphspec-set-per-run";
