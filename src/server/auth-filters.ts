/**
 * The filters an Auth handler's `on` callback may return, applied to a thread's metadata as the
 * LangGraph server applies them: `{ key: value }` and `{ key: { $eq: value } }` ask for equality,
 * `{ key: { $contains: x } }` for a list that holds `x` (every item, when `x` is a list). A thread
 * that does not match is not found — the same 404 as another tenant's.
 */
export type AuthFilters = Record<string, unknown>;

const same = (a: unknown, b: unknown) =>
  a === b || (typeof a === "object" && a !== null && JSON.stringify(a) === JSON.stringify(b));

function matchesOne(actual: unknown, wanted: unknown): boolean {
  if (wanted !== null && typeof wanted === "object" && !Array.isArray(wanted)) {
    const w = wanted as { $eq?: unknown; $contains?: unknown };
    if ("$eq" in w) return same(actual, w.$eq);
    if ("$contains" in w) {
      if (!Array.isArray(actual)) return false;
      const items = Array.isArray(w.$contains) ? w.$contains : [w.$contains];
      return items.every((x) => actual.some((a) => same(a, x)));
    }
    // An operator this server does not know: fail closed rather than show the thread.
    return false;
  }
  return same(actual, wanted);
}

/** Whether a thread's metadata passes the filters (no filters: it does). */
export function matchesFilters(
  metadata: Record<string, unknown> | undefined,
  filters: AuthFilters | undefined,
): boolean {
  if (!filters) return true;
  return Object.entries(filters).every(([k, v]) => matchesOne(metadata?.[k], v));
}
