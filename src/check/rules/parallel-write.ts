import { isObject } from "../../spec/data.js";
import { graphOf, reachableOf, stepsOf } from "../graph/per-document.js";
import { explainMany, explainTogether } from "../graph/wording.js";
import { nodeWrites } from "../node-writes.js";
import type { Rule } from "../rule.js";

/** Whether the channel keeps only the last write (LangGraph's LastValue): two in a step fail. */
function isReplace(field: unknown): boolean {
  if (!isObject(field)) return false;
  if (field.reducer === undefined) return field.type !== "messages";
  return field.reducer === "replace";
}

/** A reducer that would combine the writes, for the hint. */
function reducerHint(channel: string, field: Record<string, unknown>): string {
  const fix =
    field.type === "array"
      ? "`reducer: append`"
      : field.type === "object"
        ? "`reducer: merge`"
        : field.type === "number" || field.type === "integer"
          ? "`reducer: sum` (or `max`, `min`)"
          : "`type: array` with `reducer: append`";
  return `give \`${channel}\` a reducer that combines writes (${fix}), or let the nodes write different channels`;
}

/**
 * Nodes that can run in the same super-step must not both write a `replace` channel, and a
 * node that runs several times in one step (a map target) must not write one: LangGraph raises
 * InvalidUpdateError at run time.
 */
export const parallelWrite: Rule = {
  name: "parallel-write",
  check(ctx) {
    const state = isObject(ctx.spec.state) ? ctx.spec.state : {};
    const replace = Object.keys(state).filter((c) => isReplace(state[c]));
    if (replace.length === 0) return;
    const reachable = reachableOf(ctx);
    const live = graphOf(ctx).nodes.filter((n) => reachable.has(n));
    const writes = new Map(live.map((n) => [n, nodeWrites(ctx.spec, n).channels]));
    const steps = stepsOf(ctx);
    for (const channel of replace) {
      const field = state[channel] as Record<string, unknown>;
      const writers = live.filter((n) => writes.get(n)!.has(channel));
      for (const [j, node] of writers.entries()) {
        const site = writes.get(node)!.get(channel)!;
        const many = steps.together(node, node);
        if (many) {
          ctx.report("parallel-write", site.path, {
            message: `\`${node}\` writes \`${channel}\`, a \`replace\` channel, and can run several times in one step: ${explainMany(node, many)}`,
            hint: reducerHint(channel, field),
            at: site.at,
          });
        }
        // One finding per node, naming the first earlier writer it can meet.
        const other = writers.slice(0, j).find((w) => steps.together(w, node));
        if (other === undefined) continue;
        ctx.report("parallel-write", site.path, {
          message: `\`${node}\` and \`${other}\` can run in the same step and both write \`${channel}\`, a \`replace\` channel: ${explainTogether(node, other, steps.together(node, other)!)}`,
          hint: reducerHint(channel, field),
          at: site.at,
        });
      }
    }
  },
};
