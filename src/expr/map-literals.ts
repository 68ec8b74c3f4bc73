/**
 * The keys of the map literals an expression gives as its value: `{'role': 'user', 'content': x}`
 * types as a `map`, whose keys the type checker forgets, but a message channel needs to know
 * whether `content` and `role` are among them (the write guard refuses the map otherwise).
 */
import { Environment } from "@marcbachmann/cel-js";
import { EXPR_LIMITS } from "./limits.js";

interface Node {
  op: string;
  args: unknown;
}

const isNode = (v: unknown): v is Node =>
  typeof v === "object" && v !== null && typeof (v as Node).op === "string" && "args" in v;

let parser: Environment | undefined;

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
  parser ??= new Environment({ limits: EXPR_LIMITS.cel });
  let root: unknown;
  try {
    root = (parser.parse(source) as unknown as { ast: unknown }).ast;
  } catch {
    return undefined;
  }
  const items = isNode(root) && root.op === "list" && Array.isArray(root.args) ? root.args : [root];
  return items.map(keysOf).filter((k): k is string[] => k !== undefined);
}
