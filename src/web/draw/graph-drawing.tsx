/**
 * A graph drawn as SVG from its drawable JSON (`GET /assistants/{id}/graph`), laid out by
 * src/draw/layout.ts, with each node's run status shown (the run view lights nodes up as they start
 * and finish). Subgraph nodes open in place: their button fetches the xray drawing once and draws
 * the child's nodes in a cluster. The drawing fits the panel; "Actual size" shows it 1:1, scrolled.
 *
 * Contract the tests and other views rely on: a `<figure aria-label="Drawing of NAME">`; each node a
 * `<g class="node" data-node-id=ID data-kind=KIND data-status=STATUS>` with its name as text.
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import type { DrawableGraph } from "../../draw/drawable.js";
import { expandSubgraphs } from "../../draw/expand.js";
import { type LaidEdge, type LaidJoin, layoutGraph } from "../../draw/layout.js";
import { describeEdge, pathOf } from "../../draw/shapes.js";
import { client } from "../api.js";
import { DrawingLegend } from "./legend.js";
import { NodeShape, type NodeStatus, ToggleButton } from "./node-shape.js";

export type { NodeStatus };

export function GraphDrawing(props: {
  name: string;
  graph: DrawableGraph;
  status?: Record<string, NodeStatus>;
  /** The assistant to fetch the xray drawing from; default the graph's name. */
  assistantId?: string;
}) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [xray, setXray] = useState<DrawableGraph | undefined>(undefined);
  const [actualSize, setActualSize] = useState(false);
  const [xrayError, setXrayError] = useState<string | undefined>(undefined);
  const source = props.assistantId ?? props.name;

  // A new drawing (a save) may change the subgraphs: the xray one is fetched again when needed.
  useEffect(() => setXray(undefined), [props.graph]);
  useEffect(() => {
    if (!open.size || xray) return;
    let stale = false;
    client.assistants
      .getGraph(source, { xray: true })
      .then((g) => {
        if (!stale) {
          setXray(g as unknown as DrawableGraph);
          setXrayError(undefined);
        }
      })
      .catch((e: Error) => !stale && setXrayError(e.message));
    return () => {
      stale = true;
    };
  }, [open, xray, source]);

  const toggle = (id: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const shown = useMemo(
    () => (xray && open.size ? expandSubgraphs(props.graph, xray, open) : props.graph),
    [props.graph, xray, open],
  );
  const layout = useMemo(() => layoutGraph(shown), [shown]);
  const edgeCount = props.graph.edges.length;

  return (
    <figure aria-label={`Drawing of ${props.name}`} class="drawing">
      <div class="drawing-tools">
        <button type="button" aria-pressed={actualSize} onClick={() => setActualSize((a) => !a)}>
          {actualSize ? "Fit to panel" : "Actual size"}
        </button>
        {xrayError ? <span role="alert">Could not open the subgraph: {xrayError}</span> : null}
      </div>
      <div class={actualSize ? "drawing-scroll actual" : "drawing-scroll"}>
        {/* biome-ignore lint/a11y/useSemanticElements: an SVG drawing with buttons in it is a group, not a form's fieldset. */}
        <svg
          role="group"
          aria-label={`${props.name}: ${props.graph.nodes.length} nodes, ${edgeCount} edges`}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          width={actualSize ? layout.width : "100%"}
          height={actualSize ? layout.height : undefined}
          {...(actualSize
            ? {}
            : {
                // Fit the panel, but never below 80% of actual size for the sake of height: a
                // long graph scrolls rather than shrinking into unreadable text.
                style: {
                  maxWidth: `${Math.max(layout.width * 1.3, 240)}px`,
                  maxHeight: `max(75vh, ${Math.round(layout.height * 0.8)}px)`,
                },
              })}
          preserveAspectRatio="xMidYMin meet"
        >
          <defs>
            <marker
              id="gs-arrow"
              viewBox="0 0 10 10"
              refX="9"
              refY="5"
              markerWidth="7"
              markerHeight="7"
              orient="auto-start-reverse"
            >
              <path d="M0,0 L10,5 L0,10 z" class="arrow" />
            </marker>
          </defs>
          {layout.clusters.map((c) => (
            <g key={c.id} class="cluster" data-cluster-id={c.id}>
              <title>{`Subgraph ${c.id}`}</title>
              <rect
                x={c.x - c.width / 2}
                y={c.y - c.height / 2}
                width={c.width}
                height={c.height}
                rx={6}
              />
              <text x={c.x - c.width / 2 + 8} y={c.y - c.height / 2 + 14}>
                {c.label}
              </text>
              {open.has(c.id) ? (
                <ToggleButton
                  x={c.x + c.width / 2 - 24}
                  y={c.y - c.height / 2 + 4}
                  label={`Collapse subgraph ${c.id}`}
                  expanded={true}
                  onToggle={() => toggle(c.id)}
                />
              ) : null}
            </g>
          ))}
          {layout.edges.map((e, i) => (
            <Edge key={`${e.source}>${e.target}#${i}`} edge={e} />
          ))}
          {layout.joins.map((j) => (
            <Join key={j.id} join={j} />
          ))}
          {layout.nodes.map((n) => (
            <NodeShape
              key={n.id}
              node={n}
              status={props.status?.[n.id] ?? "idle"}
              {...(n.kind === "subgraph" ? { onToggle: () => toggle(n.id) } : {})}
            />
          ))}
        </svg>
      </div>
      <DrawingLegend />
    </figure>
  );
}

function Edge(props: { edge: LaidEdge }) {
  const e = props.edge;
  const d = e.edge;
  const classes = [
    "edge",
    d.conditional ? "conditional" : "",
    d.send ? "send" : "",
    d.parallel ? "parallel" : "",
  ].filter(Boolean);
  const path = pathOf(e.points);
  const intoJoin = e.target.startsWith("join:");
  return (
    <g class={classes.join(" ")} data-source={d.source} data-target={d.target}>
      <title>{describeEdge(e)}</title>
      {d.send ? <path class="send-outer" d={path} /> : null}
      <path class="line" d={path} {...(intoJoin ? {} : { "marker-end": "url(#gs-arrow)" })} />
      {e.label ? (
        <g class="edge-label">
          <rect
            x={e.label.x - e.label.width / 2}
            y={e.label.y - e.label.height / 2}
            width={e.label.width}
            height={e.label.height}
            rx={3}
          />
          <text x={e.label.x} y={e.label.y + 4} text-anchor="middle">
            {e.label.text}
          </text>
        </g>
      ) : null}
    </g>
  );
}

function Join(props: { join: LaidJoin }) {
  const j = props.join;
  return (
    <g class="join" data-join-target={j.target}>
      <title>{`Join: ${j.target} runs once ${j.sources.join(" and ")} have all finished`}</title>
      <rect x={j.x - j.width / 2} y={j.y - j.height / 2} width={j.width} height={j.height} rx={2} />
    </g>
  );
}
