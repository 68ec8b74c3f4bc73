/**
 * The specs a graph mounts as subgraphs, and theirs, by node: a pause inside a child shows under
 * the parent's node, so the parent's interrupt types are the child's.
 */
import { dirname, resolve } from "node:path";
import { loadSpec } from "../spec/load.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";

export interface SpecTree {
  spec: GraphSpec;
  /** By subgraph node; undefined when the child could not be read (its types are then unknown). */
  children: Map<string, SpecTree | undefined>;
}

export async function specTree(
  spec: GraphSpec,
  file: string,
  seen: ReadonlySet<string> = new Set([resolve(file)]),
): Promise<SpecTree> {
  const children = new Map<string, SpecTree | undefined>();
  for (const [name, node] of Object.entries(spec.nodes ?? {})) {
    const n = node as { kind?: string; graph?: unknown };
    if (n.kind !== "subgraph" || typeof n.graph !== "string") continue;
    const path = resolve(dirname(file), n.graph);
    // validate refuses a cycle of subgraphs; a tree is never walked round one anyway.
    if (seen.has(path)) {
      children.set(name, undefined);
      continue;
    }
    const child = await loadSpec(path).then(
      (doc) => doc.data as GraphSpec,
      () => undefined,
    );
    children.set(name, child ? await specTree(child, path, new Set([...seen, path])) : undefined);
  }
  return { spec, children };
}
