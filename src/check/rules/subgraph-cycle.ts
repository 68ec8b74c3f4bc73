import { relative, sep } from "node:path";
import type { Rule } from "../rule.js";
import { subgraphFindings } from "../subgraphs.js";

/** Subgraphs that mount each other in a cycle (a graph would contain itself), and children that cannot be loaded. */
export const subgraphCycle: Rule = {
  name: "subgraph-cycle",
  async check(ctx) {
    const name = (abs: string) => `\`${relative(ctx.doc.root, abs).split(sep).join("/")}\``;
    for (const f of await subgraphFindings(ctx)) {
      const graph = String(
        (ctx.spec.nodes?.[String(f.path[1])] as { graph?: unknown } | undefined)?.graph,
      );
      if (f.kind === "child-errors" && f.child) {
        const first = f.child.errors[0]!;
        const n = f.child.errors.length;
        ctx.report("subgraph-cycle", f.path, {
          message: `subgraph \`${graph}\` has ${n === 1 ? "an error" : `${n} errors, the first`} at line ${first.line}, column ${first.column}: ${first.message}`,
          hint: `validate ${name(f.child.doc.path)} for details`,
        });
        continue;
      }
      const chain = f.chain ?? [];
      if (chain.length === 2 && chain[0] === chain[1]) {
        ctx.report("subgraph-cycle", f.path, {
          message: "the spec mounts itself as a subgraph",
          hint: "a graph cannot contain itself; to repeat steps, add an edge back to an earlier node",
        });
        continue;
      }
      const last = chain.at(-1)!;
      const cycle = chain.slice(chain.indexOf(last)).map(name).join(" → ");
      ctx.report("subgraph-cycle", f.path, {
        message:
          last === ctx.doc.path
            ? `subgraphs mount each other in a cycle: ${cycle}`
            : `subgraph \`${graph}\` leads into a cycle: ${cycle}`,
        hint: "a graph cannot contain itself: remove one of the subgraph nodes in the cycle",
      });
    }
  },
};
