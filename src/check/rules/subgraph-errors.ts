import type { Rule } from "../rule.js";
import { childChecks } from "../subgraphs.js";

/**
 * A child spec whose own rules fail (no entry, a parallel write, an expression's type, …): compile
 * refuses the parent for it, so validate says so at the parent's `graph:`, naming the child's first
 * error by file:line:col and rule.
 */
export const subgraphErrors: Rule = {
  name: "subgraph-errors",
  async check(ctx) {
    for (const { path, child, errors } of await childChecks(ctx)) {
      const graph = String(
        (ctx.spec.nodes?.[String(path[1])] as { graph?: unknown } | undefined)?.graph,
      );
      const first = errors[0]!;
      const n = errors.length;
      const rules = [...new Set(errors.map((d) => d.rule))].map((r) => `\`${r}\``).join(", ");
      ctx.report("subgraph-errors", path, {
        message: `subgraph \`${graph}\` has ${n === 1 ? "an error" : `${n} errors (${rules}), the first`} at ${first.file}:${first.line}:${first.column} [${first.rule}]: ${first.message}`,
        hint: `fix the subgraph: \`graphspec validate ${child.doc.file}\` lists ${n === 1 ? "it" : "them"}; until then this spec does not compile`,
      });
    }
  },
};
