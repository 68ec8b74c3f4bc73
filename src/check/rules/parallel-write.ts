import { isObject } from "../../spec/data.js";
import type { Path } from "../../spec/source-map.js";
import type { CheckContext } from "../check-context.js";
import { graphOf, reachableOf, stepsOf } from "../graph/per-document.js";
import { explainMany, explainTogether } from "../graph/wording.js";
import { sharedOf } from "../module-refs.js";
import { nodeWrites, type WriteSite } from "../node-writes.js";
import type { Rule } from "../rule.js";
import { loadedChildren } from "../subgraphs.js";

/** Whether the channel keeps only the last write (LangGraph's LastValue): two in a step fail. */
function isReplace(field: unknown): boolean {
  if (!isObject(field)) return false;
  if (field.reducer === undefined) return field.type !== "messages";
  return field.reducer === "replace";
}

/** A writer as a message names it: `a`, or `a` (its `on_error`, when it fails) for a handler's write. */
const named = (node: string, site: WriteSite | undefined): string =>
  site?.path[2] === "on_error" ? `\`${node}\` (its \`on_error\`, when it fails)` : `\`${node}\``;

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

/** The value the spec writes at `path` (a `set` value, a `write` or `output` map's entry). */
function valueAt(ctx: CheckContext, path: Path): unknown {
  let v: unknown = ctx.spec;
  for (const k of path) v = isObject(v) ? v[String(k)] : undefined;
  return v;
}

/**
 * What each node writes; a subgraph without `output` copies back the channels both specs declare
 * (as far as the child's `output` list gives them), reported at its `graph:` — rather than at its
 * `on_error.write`, which writes them only when it fails. (Channels the parent does not declare
 * are never checked: no need to leave them out.)
 */
async function writesOf(
  ctx: CheckContext,
  live: string[],
): Promise<Map<string, Map<string, WriteSite>>> {
  const writes = new Map(live.map((n) => [n, new Map(nodeWrites(ctx.spec, n).channels)]));
  for (const { path, child } of await loadedChildren(ctx, sharedOf(ctx))) {
    const name = String(path[1]);
    const node = ctx.spec.nodes?.[name] as { output?: unknown } | undefined;
    const own = writes.get(name);
    if (!own || node?.output !== undefined) continue;
    const spec = (child.doc.data ?? {}) as { state?: unknown; output?: unknown };
    const childState = isObject(spec.state) ? spec.state : {};
    const gives = Array.isArray(spec.output) ? spec.output.map(String) : Object.keys(childState);
    for (const k of gives) if (Object.hasOwn(childState, k)) own.set(k, { path, at: "value" });
  }
  return writes;
}

/**
 * The first of `ordered` (names by position) before position `before` that is among `partners`.
 * Asking the partners, not every earlier name, keeps a 1,000-writer chain linear.
 */
function firstAmong(
  ordered: ReadonlyMap<string, number>,
  before: number,
  partners: ReadonlySet<string>,
): string | undefined {
  let first: string | undefined;
  let at = before;
  for (const p of partners) {
    const i = ordered.get(p);
    if (i !== undefined && i < at) {
      first = p;
      at = i;
    }
  }
  return first;
}

/**
 * Nodes that can run in the same super-step must not both write a `replace` channel, nor both
 * reset (write `null` to) any channel, and a node that runs several times in one step (a map
 * target) must not write one: LangGraph raises InvalidUpdateError at run time.
 */
export const parallelWrite: Rule = {
  name: "parallel-write",
  async check(ctx) {
    const state = isObject(ctx.spec.state) ? ctx.spec.state : {};
    const reachable = reachableOf(ctx);
    const live = graphOf(ctx).nodes.filter((n) => reachable.has(n));
    const writes = await writesOf(ctx, live);
    const steps = stepsOf(ctx);
    resets(ctx, state, live, writes, steps);
    const replace = Object.keys(state).filter((c) => isReplace(state[c]));
    for (const channel of replace) {
      const field = state[channel] as Record<string, unknown>;
      const writers = live.filter((n) => writes.get(n)!.has(channel));
      const writerIndex = new Map(writers.map((w, i) => [w, i]));
      for (const [j, node] of writers.entries()) {
        const site = writes.get(node)!.get(channel)!;
        const many = steps.together(node, node);
        if (many) {
          ctx.report("parallel-write", site.path, {
            message: `${named(node, site)} writes \`${channel}\`, a \`replace\` channel, and can run several times in one step: ${explainMany(node, many)}`,
            hint: reducerHint(channel, field),
            at: site.at,
          });
        }
        // One finding per node, naming the first earlier writer it can meet.
        const other = firstAmong(writerIndex, j, steps.partners(node));
        if (other === undefined) continue;
        ctx.report("parallel-write", site.path, {
          message: `${named(node, site)} and ${named(other, writes.get(other)!.get(channel))} can run in the same step and both write \`${channel}\`, a \`replace\` channel: ${explainTogether(node, other, steps.together(node, other)!)}`,
          hint: reducerHint(channel, field),
          at: site.at,
        });
      }
    }
  },
};

/**
 * Where node `name` writes `null` to `channel`: its own write (`first`, the first place it writes
 * the channel), or its `on_error.write` — which runs in the same step when the node fails, so a
 * node that writes a value and resets the channel on failure resets it in that step.
 */
function resetSite(
  ctx: CheckContext,
  name: string,
  channel: string,
  first: WriteSite | undefined,
): WriteSite | undefined {
  if (first?.at === "key" && valueAt(ctx, first.path) === null) return first;
  const onError: Path = ["nodes", name, "on_error", "write", channel];
  const written = valueAt(ctx, onError.slice(0, -1));
  return isObject(written) && written[channel] === null ? { path: onError, at: "key" } : undefined;
}

/** Two resets (`null`, LangGraph's Overwrite) of one reducer channel in a step: only one is allowed. */
function resets(
  ctx: CheckContext,
  state: Record<string, unknown>,
  live: string[],
  writes: Map<string, Map<string, WriteSite>>,
  steps: ReturnType<typeof stepsOf>,
): void {
  for (const channel of Object.keys(state).filter((c) => !isReplace(state[c]))) {
    const resetAt = new Map<string, WriteSite>();
    for (const n of live) {
      const site = resetSite(ctx, n, channel, writes.get(n)!.get(channel));
      if (site) resetAt.set(n, site);
    }
    const resetters = [...resetAt.keys()];
    const resetterIndex = new Map(resetters.map((w, i) => [w, i]));
    for (const [j, node] of resetters.entries()) {
      const site = resetAt.get(node)!;
      const other = firstAmong(resetterIndex, j, steps.partners(node));
      const many = steps.together(node, node);
      if (other === undefined && !many) continue;
      ctx.report("parallel-write", site.path, {
        message:
          other !== undefined
            ? `${named(node, site)} and ${named(other, resetAt.get(other))} can run in the same step and both reset \`${channel}\` (write \`null\`), and a step takes one reset of a channel: ${explainTogether(node, other, steps.together(node, other)!)}`
            : `${named(node, site)} resets \`${channel}\` (writes \`null\`) and can run several times in one step, and a step takes one reset of a channel: ${explainMany(node, many!)}`,
        hint: `reset \`${channel}\` from one node of the step only (e.g. a \`set\` node before them), or let the nodes run in different steps`,
        at: site.at,
      });
    }
  }
}
