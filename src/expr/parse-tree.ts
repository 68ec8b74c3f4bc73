/**
 * cel-js's parse tree, for the readers of it that the type checker does not serve: where a field
 * is read (field-reads.ts), the keys of map literals (map-literals.ts), the literals' own checks
 * (literal-checks.ts). A node is an `op` and its `args`.
 */
import { Environment } from "@marcbachmann/cel-js";
import { EXPR_LIMITS } from "./limits.js";

export interface AstNode {
  op: string;
  args: unknown;
}

export const isAstNode = (v: unknown): v is AstNode =>
  typeof v === "object" && v !== null && typeof (v as AstNode).op === "string" && "args" in v;

let parser: Environment | undefined;

/**
 * The parse tree of `source`, parsed by `env` (default: one with the evaluation's limits);
 * undefined when it does not parse (the checker reports that).
 */
export function parseTree(source: string, env?: Environment): unknown {
  const by = env ?? parser ?? new Environment({ limits: EXPR_LIMITS.cel });
  if (!env) parser = by;
  try {
    return (by.parse(source) as unknown as { ast: unknown }).ast;
  } catch {
    return undefined;
  }
}
