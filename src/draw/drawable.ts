/**
 * A graph as `GET /assistants/{id}/graph` answers it: LangGraph's drawable-graph JSON (nodes with
 * `id`, `type`, `data`; edges with `source`, `target`, `conditional`, `data` as the label), with
 * graphspec's details in each node's `metadata` and each edge's extra keys. Clients that know only
 * LangGraph's shape read it as theirs; the web page and `graphspec draw` read the details too.
 * (Draft contract: the graphs developer of issue 14 owns and completes it.)
 */
export interface DrawableNode {
  /** `__start__`, `__end__`, a node name, or with `xray` a subgraph's node as `parent:child`. */
  id: string;
  type: "schema" | "runnable";
  data: string | { id: string; name: string };
  metadata?: NodeDetails;
}

export interface NodeDetails {
  /** The spec's node kind: llm, agent, tools, tool, function, interrupt, subgraph, set, write… */
  kind: string;
  description?: string;
  /** Static breakpoints on this node. */
  interrupt?: ("before" | "after")[];
  /** The node can pause the run for a person (an `interrupt` node, a tool approval). */
  pauses?: boolean;
  /** For a `subgraph` node: the graph it mounts. */
  subgraph?: string;
  /** With `xray`: the subgraph node this node is inside. */
  parent?: string;
}

export interface DrawableEdge {
  source: string;
  target: string;
  conditional: boolean;
  /** The label: a route's CEL condition, `default`, the router, or a map's list. */
  data?: string;
}

export interface DrawableGraph {
  nodes: DrawableNode[];
  edges: DrawableEdge[];
}
