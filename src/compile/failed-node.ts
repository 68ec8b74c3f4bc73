/**
 * Which node an error was thrown in, noted by the node wrapper as it passes: LangGraph keeps that
 * only in the failed graph's checkpoint, so a subgraph node (which sees only the thrown error)
 * could not otherwise say which node of its child failed. The first (innermost) node is kept.
 */
const failedIn = new WeakMap<object, string>();

/** Notes that `error` was thrown in `node`, unless a node inside it already did. */
export function noteFailedNode(error: unknown, node: string): void {
  if (typeof error === "object" && error !== null && !failedIn.has(error))
    failedIn.set(error, node);
}

/** The node `error` was first thrown in, when a node wrapper saw it. */
export function failedNodeOf(error: unknown): string | undefined {
  return typeof error === "object" && error !== null ? failedIn.get(error) : undefined;
}
