/**
 * Which secret a run on a thread must be given before it is sent (docs/dev.md, "A secret the
 * thread does not keep"). Pure, so it is tested without a browser.
 */
import type { JsonSchema } from "../forms/schema-fields.js";

/**
 * The first secret field a run on a thread must be given and is not: a required `writeOnly` field
 * of the context schema, absent from `given`. The thread never keeps it, so a run from one of its
 * checkpoints without it fails — a background run (`runs.create`) only once it has started.
 */
export function secretMissing(
  context: JsonSchema | undefined,
  given: Record<string, unknown>,
): string | undefined {
  const props = context?.properties ?? {};
  return (context?.required ?? []).find(
    (k) =>
      props[k]?.writeOnly === true && props[k]?.default === undefined && given[k] === undefined,
  );
}
