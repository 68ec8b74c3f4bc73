import {
  buildGraph,
  type GraphEdge,
  type GraphModel,
  reachedFromStart,
} from "../../spec/control-flow.js";
import { asObject } from "../../spec/data.js";
import { components, exitlessLoops } from "../graph/loops.js";
import { graphOf, reachableOf, stepsOf } from "../graph/per-document.js";
import { andNames, edgeName } from "../graph/wording.js";
import { sharedOf } from "../module-refs.js";
import type { Rule } from "../rule.js";
import { loadedChildren } from "../subgraphs.js";

/**
 * What a node on a loop can do to stop it for a while: `pause` — it asks a person, as the spec
 * says (an interrupt node, a breakpoint, an agent's `approve`, a subgraph whose child may ask);
 * `code` — it runs code of the user's that may call LangGraph's `interrupt()`, which graphspec
 * cannot see; `none` — it cannot pause (a `set` or an `llm` node).
 */
type Stop = "pause" | "code" | "none";

const STRENGTH: Record<Stop, number> = { none: 0, code: 1, pause: 2 };

/** What a node of `spec` can do to stop a loop; `child` tells it what a subgraph node's child can. */
function stopIn(spec: Record<string, unknown>, node: string, child: (node: string) => Stop): Stop {
  const breakpoints = asObject(spec.interrupts);
  for (const when of ["before", "after"])
    if (Array.isArray(breakpoints?.[when]) && (breakpoints[when] as unknown[]).includes(node))
      return "pause";
  const data = asObject(asObject(spec.nodes)?.[node]);
  switch (data?.kind) {
    case "set":
    case "llm":
      return "none";
    case "agent":
      return Array.isArray(data.approve) && data.approve.length > 0 ? "pause" : "code";
    case "function":
    case "tool":
    case "tools":
      return "code";
    case "subgraph":
      return child(node);
    default:
      // An interrupt node; a kind the schema refuses.
      return "pause";
  }
}

/**
 * The most a child spec can do to stop a loop its subgraph node is on: the strongest stop of the
 * nodes a run of it can reach (a pause in a node nothing reaches never happens). A grandchild is
 * taken as able to pause — it is not read here.
 */
function childStop(spec: Record<string, unknown>): Stop {
  let most: Stop = "none";
  const reached = reachedFromStart(buildGraph(spec));
  for (const node of Object.keys(asObject(spec.nodes) ?? {}).filter((n) => reached.has(n))) {
    const stop = stopIn(spec, node, () => "pause");
    if (STRENGTH[stop] > STRENGTH[most]) most = stop;
  }
  return most;
}

/** A single-source static edge: when its source succeeds, its targets run in the next step. */
const isStatic = (e: GraphEdge) => e.kind === "static" && e.sources.length === 1;

/** The shortest loop of `edges` from `first` back to it, inside `members`: nodes and the edges taken. */
function shortestLoop(
  first: string,
  members: ReadonlySet<string>,
  edges: readonly GraphEdge[],
): { nodes: string[]; edges: GraphEdge[] } {
  const via = new Map<string, { from: string; edge: GraphEdge }>();
  const queue = [first];
  for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
    for (const e of edges) {
      if (e.sources[0] !== n) continue;
      for (const { name } of e.targets) {
        if (!members.has(name) || via.has(name)) continue;
        via.set(name, { from: n, edge: e });
        if (name === first) queue.length = 0;
        else queue.push(name);
      }
    }
  }
  const nodes: string[] = [];
  const taken: GraphEdge[] = [];
  let at = first;
  do {
    const step = via.get(at)!;
    nodes.unshift(step.from);
    taken.unshift(step.edge);
    at = step.from;
  } while (at !== first);
  return { nodes, edges: taken };
}

/** The loops of static edges among `nodes`, each with its members in file order. */
function staticLoops(graph: GraphModel, nodes: readonly string[]): string[][] {
  const succ = new Map<string, Set<string>>();
  for (const e of graph.edges.filter(isStatic))
    for (const t of e.targets)
      succ.set(e.sources[0]!, (succ.get(e.sources[0]!) ?? new Set()).add(t.name));
  const order = new Map(graph.nodes.map((n, i) => [n, i]));
  return components(nodes, succ)
    .filter((c) => c.length > 1 || succ.get(c[0]!)?.has(c[0]!))
    .map((c) => c.sort((a, b) => order.get(a)! - order.get(b)!));
}

/**
 * A loop made only of static edges never ends: every time one of its nodes succeeds, the next
 * runs in the following step — whatever other edges leave it (`step → END` beside `step → step`
 * ends one branch, not the loop) and whatever it returns (a `Command`'s `goto` adds a target, it
 * does not cancel the edges). Only a pause for a person stops the run, until the next resume; a
 * failure is not a way out (as for `no-path-to-end`). A loop no path leaves at all is
 * `no-path-to-end`'s.
 */
export const endlessLoop: Rule = {
  name: "endless-loop",
  async check(ctx) {
    // A subgraph node stops a loop only as far as its child can; a child not read (not found,
    // broken, or `loadSubgraphs: false`) is taken as able to pause.
    const children = new Map<string, Stop>();
    for (const { path, child } of await loadedChildren(ctx, sharedOf(ctx)))
      if (path[0] === "nodes" && typeof path[1] === "string")
        children.set(path[1], childStop((child.doc.data ?? {}) as Record<string, unknown>));
    const stopOf = (node: string): Stop =>
      stopIn(
        ctx.spec as unknown as Record<string, unknown>,
        node,
        (n) => children.get(n) ?? "pause",
      );
    const graph = graphOf(ctx);
    const reachable = reachableOf(ctx);
    const steps = stepsOf(ctx);
    // Nodes that never run are unreachable-node's; loops with no exit at all, no-path-to-end's.
    const exitless = new Set(exitlessLoops(graph, reachable).flat());
    const live = graph.nodes.filter(
      (n) => reachable.has(n) && (!steps.exact || steps.ran.has(n)) && !exitless.has(n),
    );
    const statics = graph.edges.filter(isStatic);
    for (const members of staticLoops(graph, live)) {
      const stops = members.map((n) => [n, stopOf(n)] as const);
      if (stops.some(([, s]) => s === "pause")) continue;
      const code = stops.filter(([, s]) => s === "code").map(([n]) => n);
      const loop = shortestLoop(members[0]!, new Set(members), statics);
      const closing = loop.edges.at(-1)!;
      const back = closing.targets.find((t) => t.name === loop.nodes[0])!;
      const path = [...loop.nodes, loop.nodes[0]!].map((n) => `\`${n}\``).join(" → ");
      const what =
        loop.nodes.length === 1
          ? `node \`${loop.nodes[0]}\` goes back to itself through a static edge (${edgeName(closing)}): each of its runs starts another in the next step`
          : `the loop ${path} is made of static edges (${loop.edges.map(edgeName).join(", ")}): each run of a node on it starts the next one in the next step`;
      const unless = code.length
        ? ` (unless ${andNames(code)} ${code.length === 1 ? "pauses" : "pause"} it for a person with LangGraph's \`interrupt()\`)`
        : "";
      const from = closing.sources[0]!;
      ctx.report("endless-loop", back.path, {
        message: `${what}, whatever other edges leave it, so a run that gets here never ends: it fails at the recursion limit${unless}`,
        hint: `make the edge from \`${from}\` back to \`${back.name}\` a \`route\` that can leave the loop, e.g. \`- { from: ${from}, route: [{ when: <go on>, to: ${back.name} }, { default: END }] }\``,
        ...(code.length ? { severity: "warning" as const } : {}),
        at: "value",
      });
    }
  },
};
