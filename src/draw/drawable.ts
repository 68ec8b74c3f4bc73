/**
 * A graph as `GET /assistants/{id}/graph` answers it: LangGraph's drawable-graph JSON (nodes with
 * `id`, `type`, `data`; edges with `source`, `target`, `conditional`, `data` as the label), with
 * graphspec's details in each node's `metadata` and each edge's extra keys. Clients that know only
 * LangGraph's shape read it as theirs; the web page and `graphspec draw` read the details too.
 * docs/server.md "The drawing" describes it.
 */
export interface DrawableNode {
  /** `__start__`, `__end__`, a node name, or with `xray` a subgraph's node as `parent:child`. */
  id: string;
  type: "schema" | "runnable";
  data: string | { id: string; name: string };
  metadata?: NodeDetails;
}

/** `start` and `end` for `__start__` / `__end__`; otherwise the spec's node kind. */
export type NodeKind =
  | "start"
  | "end"
  | "llm"
  | "agent"
  | "tools"
  | "tool"
  | "function"
  | "interrupt"
  | "subgraph"
  | "set";

export interface NodeDetails {
  kind: NodeKind | (string & {});
  description?: string;
  /** Static breakpoints on this node (the spec's `interrupts.before` / `interrupts.after`). */
  interrupt?: ("before" | "after")[];
  /**
   * The node can pause the run for a person: an `interrupt` node, or an agent whose `approve`
   * lists tools (the tools it approves are in `approve`).
   */
  pauses?: boolean;
  approve?: string[];
  /** For a `subgraph` node: the spec it mounts, as the parent spec names it. */
  subgraph?: string;
  /** With `xray`: the id of the subgraph node this node is inside. */
  parent?: string;
  /** No path from START reaches it: compile leaves it out, so no run ever runs it. */
  unreachable?: true;
}

/** Which form of spec edge an edge comes from. */
export type EdgeKind = "static" | "route" | "router" | "map" | "on_error";

export interface DrawableEdge {
  source: string;
  target: string;
  /** True for edges chosen at run time: `route`, `router`, `map` and `on_error.goto`. */
  conditional: boolean;
  /** The label: a route case's CEL `when` (or `default`), the router's name, a map's list. */
  data?: string;
  kind?: EdgeKind;
  /** A route case's CEL condition, or true for its `default` case. */
  when?: string;
  default?: true;
  /** A router's name: `module#export`. */
  router?: string;
  /** A `map` edge: Send fan-out, one run of the target per item of the CEL list `over`. */
  send?: true;
  over?: string;
  /** A join (`from: [a, b]`): the sources that must all finish before the target runs. */
  join?: string[];
  /** A static fan-out (`to: [a, b]`): the targets that run in parallel, this one among them. */
  parallel?: string[];
}

export interface DrawableGraph {
  nodes: DrawableNode[];
  edges: DrawableEdge[];
}

export const START_ID = "__start__";
export const END_ID = "__end__";
