/**
 * The keys of the map literals an expression gives as its value: `{'role': 'user', 'content': x}`
 * types as a `map`, whose keys the type checker forgets, but a message channel needs to know
 * whether `content` and `role` are among them (the write guard refuses the map otherwise).
 */
import { isAstNode as isNode, parseTree } from "./parse-tree.js";

/** The constant string keys of a map literal node, or undefined when it is none or a key is computed. */
function keysOf(n: unknown): string[] | undefined {
  if (!isNode(n) || n.op !== "map" || !Array.isArray(n.args)) return undefined;
  const keys: string[] = [];
  for (const entry of n.args as unknown[]) {
    const key = Array.isArray(entry) ? entry[0] : undefined;
    if (!isNode(key) || key.op !== "value" || typeof key.args !== "string") return undefined;
    keys.push(key.args);
  }
  return keys;
}

/**
 * The key lists of the map literals `source` evaluates to: itself, or the items of a list literal
 * it is. Maps with a computed key, and anything else, are left out; undefined when it does not parse.
 */
export function valueMapLiterals(source: string): string[][] | undefined {
  const root = parseTree(source);
  if (root === undefined) return undefined;
  const items = isNode(root) && root.op === "list" && Array.isArray(root.args) ? root.args : [root];
  return items.map(keysOf).filter((k): k is string[] => k !== undefined);
}
