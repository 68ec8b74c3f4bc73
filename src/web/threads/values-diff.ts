/**
 * What a checkpoint changed: its values against its parent's, key by key (channels are the
 * state's top-level keys, so that is the grain a step writes at).
 */

export interface ValueChange {
  key: string;
  kind: "added" | "removed" | "changed";
  before?: unknown;
  after?: unknown;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The keys whose values differ, in the order of `after` then the keys only `before` had. */
export function valuesDiff(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
): ValueChange[] {
  const old = before ?? {};
  const changes: ValueChange[] = [];
  for (const [key, value] of Object.entries(after)) {
    if (!(key in old)) changes.push({ key, kind: "added", after: value });
    else if (!same(old[key], value))
      changes.push({ key, kind: "changed", before: old[key], after: value });
  }
  for (const [key, value] of Object.entries(old))
    if (!(key in after)) changes.push({ key, kind: "removed", before: value });
  return changes;
}

/**
 * The keys of `edited` that differ from `original`: what a fork writes. Writing an unchanged key
 * again would go through its reducer (an `append` list would grow by itself).
 */
export function changedKeys(
  original: Record<string, unknown>,
  edited: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(edited).filter(([k, v]) => !(k in original) || !same(original[k], v)),
  );
}
