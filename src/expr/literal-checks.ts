/**
 * Checks of the literals in an expression that the type checker does not make, so that a spec
 * that passes validate does not fail (or do something else) at run time:
 * - a map literal's key `__proto__`, `constructor` or `prototype` (cel-js drops such entries
 *   silently, and such keys are the doors to prototype pollution in code that merges data later;
 *   the loader refuses them in spec files for the same reason);
 * - a regex literal given to `matches()` that the linear-time engine cannot run (backreferences,
 *   lookaround) or that is not a regex at all.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { regexProblem } from "../spec/linear-regex.js";
import type { ExprProblem } from "./expr-error.js";
import { type AstNode, isAstNode, parseTree } from "./parse-tree.js";

const UNSAFE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** cel-js's AST node, as far as these checks read it. */
interface Node extends AstNode {
  start: number;
  end: number;
}

const isNode = (v: unknown): v is Node => isAstNode(v);

/** Every node of the tree under `root` (operands, call arguments, map entries, macro arguments). */
function* nodes(root: Node): Generator<Node> {
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (isNode(v)) {
      yield v;
      stack.push(v.args);
    } else if (Array.isArray(v)) stack.push(...v);
  }
}

const stringLiteral = (n: unknown): n is Node & { args: string } =>
  isNode(n) && n.op === "value" && typeof n.args === "string";

/** What is wrong with the literals of `source` (already parsed and checked in `env`). */
export function literalProblems(env: Environment, source: string): ExprProblem[] {
  const mayHaveKey = /__proto__|constructor|prototype/.test(source);
  const mayMatch = source.includes("matches");
  if (!mayHaveKey && !mayMatch) return [];
  const root = parseTree(source, env) as Node | undefined;
  if (root === undefined) return []; // the checker reports what does not parse
  const out: ExprProblem[] = [];
  for (const n of nodes(root)) {
    if (n.op === "map" && Array.isArray(n.args)) {
      for (const entry of n.args as unknown[]) {
        const key = Array.isArray(entry) ? entry[0] : undefined;
        if (stringLiteral(key) && UNSAFE_KEYS.has(key.args)) {
          out.push({
            kind: "unsafe-key",
            message: `a map key \`${key.args}\` is refused`,
            hint: "such keys could reach an object prototype; choose another key name",
            start: key.start,
            end: key.end,
          });
        }
      }
    }
    if (n.op === "rcall" && Array.isArray(n.args) && n.args[0] === "matches") {
      const pattern = (n.args[2] as unknown[] | undefined)?.[0];
      if (!stringLiteral(pattern)) continue;
      const p = regexProblem(pattern.args);
      if (p) {
        out.push({
          kind: "regex",
          message: p.message,
          hint: p.hint,
          start: pattern.start,
          end: pattern.end,
        });
      }
    }
  }
  return out.sort((a, b) => a.start - b.start);
}
