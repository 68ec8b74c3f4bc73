/**
 * The wording of graph findings: why two nodes run in one step, or one node several times, said
 * from the analysis' witnesses (triggers.ts), and how edges and lists of nodes are named in
 * messages. Kept apart so that the rules' messages can change without touching the analyses.
 */
import { type GraphEdge, START } from "../../spec/control-flow.js";
import type { CoRun, Trigger } from "./triggers.js";

export const edgeName = (edge: GraphEdge | number): string =>
  `edges[${typeof edge === "number" ? edge : edge.index}]`;

const endpoint = (n: string) => (n === START ? "START" : `\`${n}\``);

function runs(t: Trigger): string {
  switch (t.kind) {
    case "edge":
      return `runs after ${endpoint(t.from)} (${t.edge.kind === "static" ? "" : `${t.edge.kind} at `}${edgeName(t.edge)})`;
    case "join":
      return `runs when the join at ${edgeName(t.edge)} completes`;
    case "error":
      return `runs when \`${t.from}\` fails (its \`on_error.goto\`)`;
    case "deferred":
      return "is deferred (`defer: true`) and runs when no edge triggers anything else";
  }
}

/** Why `a` and `b` run in one step, for a message: "both run after `plan` (fan-out at edges[2])". */
export function explainTogether(a: string, b: string, co: CoRun): string {
  // Every task has a trigger (START's is never asked about).
  const [ta, tb] = [co.a[0]!, co.b[0]!];
  if (ta.kind === "deferred" && tb.kind === "deferred")
    return "both are deferred (`defer: true`) and run together when no edge triggers anything else";
  if (ta.kind === "join" && tb.kind === "join" && ta.edge === tb.edge)
    return `both run when the join at ${edgeName(ta.edge)} completes`;
  if (ta.kind === "edge" && tb.kind === "edge" && ta.from === tb.from) {
    const from = endpoint(ta.from);
    if (ta.edge.index !== tb.edge.index) {
      const [e1, e2] = [ta.edge.index, tb.edge.index].sort((x, y) => x - y);
      return `both run after ${from} (${edgeName(e1!)} and ${edgeName(e2!)} both leave it)`;
    }
    if (ta.edge.kind === "router")
      return `both run after ${from} (its router at ${edgeName(ta.edge)} may pick both)`;
    // A route picks one target a run: two of them meet only when the source ran several times.
    if (ta.edge.kind === "route")
      return `both run after ${from}, which runs several times in one step (its route at ${edgeName(ta.edge)} picks one of them in each run)`;
    return `both run after ${from} (fan-out at ${edgeName(ta.edge)})`;
  }
  return `\`${a}\` ${runs(ta)} while \`${b}\` ${runs(tb)}, in the same step`;
}

/** Why `node` runs more than once in one step. */
export function explainMany(node: string, co: CoRun): string {
  const maps = co.a.filter(
    (t): t is Extract<Trigger, { kind: "edge" | "join" }> =>
      (t.kind === "edge" || t.kind === "join") && t.edge.kind === "map",
  );
  const [first, second] = co.a;
  if (maps.length === 1 && co.a.length === 1 && maps[0]!.edge.over !== undefined)
    return `the map at ${edgeName(maps[0]!.edge)} runs it once per item of \`${maps[0]!.edge.over}\`, in parallel`;
  if (maps.length >= 2)
    return `the maps at ${edgeName(maps[0]!.edge)} and ${edgeName(maps[1]!.edge)} can both send it work in one step`;
  if (maps.length === 1 && first && second) {
    const other = first === maps[0] ? second : first;
    return `the map at ${edgeName(maps[0]!.edge)} sends it work while it also ${runs(other).replace(/^runs /, "is triggered ")}`;
  }
  return `\`${node}\` can run several times in one step`;
}

/** "`a` and `b`", "`a`, `b` and `c`". */
export function andNames(names: readonly string[]): string {
  const quoted = names.map((n) => `\`${n}\``);
  return quoted.length <= 1
    ? quoted.join("")
    : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}
