/**
 * The witnesses of the super-step analysis: why a node runs in a step (`Trigger`) and why two
 * nodes (or one node twice) can run in one (`CoRun`). Shared by both ways of finding co-runs
 * (explore-steps.ts, and the pairwise fallback in steps.ts) and by the wording of findings
 * (wording.ts), which needs nothing else of the engine.
 */
import type { GraphEdge } from "../../spec/control-flow.js";

/** Why a node runs in some step. */
export type Trigger =
  | { kind: "edge"; from: string; edge: GraphEdge }
  | { kind: "join"; edge: GraphEdge }
  | { kind: "error"; from: string }
  | { kind: "deferred" };

/** Why two nodes (or one node twice) can be in one step: the triggers of each. */
export interface CoRun {
  a: Trigger[];
  b: Trigger[];
}

/** The key of an unordered pair of nodes: pairs of co-running nodes are stored by it. */
export const pairKey = (a: string, b: string) => (a <= b ? `${a}\u0000${b}` : `${b}\u0000${a}`);
