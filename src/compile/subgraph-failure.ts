/**
 * A failure inside a subgraph node's child run, as the parent node's error. It keeps the child's
 * error as its `cause` (retries and `on_error` judge that), the child's file, and the child's node
 * that failed: the executor reports the child's own code, node and hint, with the path of nodes
 * down to where it failed (run/classify-error.ts), not this wrapper's `subgraph` code.
 */
import { GraphspecRunError } from "./graphspec-run-error.js";

export class SubgraphFailure extends GraphspecRunError {
  /** The subgraph node (in the graph that mounts the child). */
  declare readonly node: string;
  /** The child spec, relative to the project root. */
  readonly file: string;
  /** The child's node the error was thrown in, when known (a step's colliding writes have none). */
  readonly childNode: string | undefined;
  /** For the child's colliding writes (InvalidUpdateError): the child's nodes that wrote. */
  readonly writers: readonly string[];

  constructor(
    node: string,
    file: string,
    error: unknown,
    where: { childNode?: string | undefined; writers?: readonly string[] } = {},
  ) {
    const e = error as { message?: unknown; hint?: unknown; field?: unknown } | null;
    const message = typeof e?.message === "string" ? e.message : String(error);
    super("subgraph", `node \`${node}\`: the subgraph \`${file}\` failed: ${message}`, {
      node,
      ...(typeof e?.field === "string" ? { field: e.field } : {}),
      hint:
        typeof e?.hint === "string" ? e.hint : `run \`${file}\` on its own to see where it fails`,
      cause: error,
    });
    this.file = file;
    this.childNode = where.childNode;
    this.writers = where.writers ?? [];
  }
}
