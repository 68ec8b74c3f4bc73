import { isMap, isPair, isScalar, isSeq, type Node } from "yaml";
import type { Span } from "./source-map.js";

export interface DuplicateKey {
  key: string;
  /** The repeated key. */
  span: Span;
  /** Where the key first appears in the same mapping. */
  first: Span;
}

/**
 * Keys that repeat within one mapping. The YAML parser can detect them too, but compares every
 * key with every other one (quadratic: a 1 MB file of keys takes minutes); this is one pass with
 * a set per mapping, and it knows where the first occurrence is.
 */
export function findDuplicateKeys(root: Node | null): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  const stack: Node[] = root ? [root] : [];
  while (stack.length) {
    const node = stack.pop()!;
    if (isSeq(node)) {
      for (const item of node.items) if (item) stack.push(item as Node);
    } else if (isMap(node)) {
      const seen = new Map<string, Span>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = pair.key;
        if (isScalar(key) && key.value !== null && key.range) {
          const name = String(key.value);
          const span: Span = [key.range[0], key.range[1]];
          const first = seen.get(name);
          if (first) found.push({ key: name, span, first });
          else seen.set(name, span);
        }
        if (pair.value) stack.push(pair.value as Node);
      }
    }
  }
  return found.sort((a, b) => a.span[0] - b.span[0]);
}
