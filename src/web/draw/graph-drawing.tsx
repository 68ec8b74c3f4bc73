/**
 * A graph drawn as SVG from its drawable JSON, with each node's run status shown (the run view
 * lights nodes up as they start and finish). Placeholder: the graphs developer of issue 14 draws it.
 *
 * Contract the tests and other views rely on: a `<figure aria-label="Drawing of NAME">`; each node a
 * `<g class="node" data-node-id=ID data-kind=KIND data-status=STATUS>` with its name as text.
 */
import type { DrawableGraph } from "../../draw/drawable.js";

export type NodeStatus = "idle" | "running" | "done" | "interrupted" | "error";

export function GraphDrawing(props: {
  name: string;
  graph: DrawableGraph;
  status?: Record<string, NodeStatus>;
}) {
  return (
    <figure aria-label={`Drawing of ${props.name}`}>
      <svg
        role="img"
        aria-label={`${props.name}: ${props.graph.nodes.length} nodes`}
        width="0"
        height="0"
      >
        {props.graph.nodes.map((n) => (
          <g
            key={n.id}
            class="node"
            data-node-id={n.id}
            data-kind={n.metadata?.kind ?? n.type}
            data-status={props.status?.[n.id] ?? "idle"}
          >
            <text>{n.id}</text>
          </g>
        ))}
      </svg>
    </figure>
  );
}
