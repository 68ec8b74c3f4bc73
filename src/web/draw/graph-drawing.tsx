/**
 * A graph drawn as SVG from its drawable JSON (`GET /assistants/{id}/graph`), laid out by
 * src/draw/layout.ts, with each node's run status shown (the run view lights nodes up as they start
 * and finish). Subgraph nodes open in place: their button fetches the xray drawing once and draws
 * the child's nodes in a cluster. It fits the panel's width without shrinking its labels below a
 * readable size, and zooms and pans (drawing-zoom.tsx). A node clicked is reported (the run view
 * shows its step); the nodes `selected` are marked.
 *
 * Contract the tests and other views rely on: a `<figure aria-label="Drawing of NAME">`; each node a
 * `<g class="node" data-node-id=ID data-kind=KIND data-status=STATUS>` with its name as text.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { DrawableGraph } from "../../draw/drawable.js";
import { expandSubgraphs } from "../../draw/expand.js";
import { type LaidEdge, type LaidJoin, layoutGraph } from "../../draw/layout.js";
import { describeEdge, pathOf } from "../../draw/shapes.js";
import { client } from "../api.js";
import { type DrawingView, svgSizing, useDragToPan, ZoomControls } from "./drawing-zoom.js";
import { DrawingLegend } from "./legend.js";
import { NodeShape, type NodeStatus, ToggleButton } from "./node-shape.js";

export type { NodeStatus };

export function GraphDrawing(props: {
  name: string;
  graph: DrawableGraph;
  status?: Record<string, NodeStatus>;
  /** The assistant to fetch the xray drawing from; default the graph's name. */
  assistantId?: string;
  /** Nodes to mark as selected (the run view's step). */
  selected?: ReadonlySet<string>;
  /** A node was clicked (with the mouse: the run view's list of steps is the keyboard's way). */
  onNodeClick?: (id: string) => void;
}) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [xray, setXray] = useState<DrawableGraph | undefined>(undefined);
  const [view, setView] = useState<DrawingView>({ mode: "width" });
  const svg = useRef<SVGSVGElement>(null);
  const area = useRef<HTMLDivElement>(null);
  const pan = useDragToPan(area);
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
        <ZoomControls
          view={view}
          onView={setView}
          svg={svg}
          width={layout.width}
          height={layout.height}
        />
        {xrayError ? <span role="alert">Could not open the subgraph: {xrayError}</span> : null}
      </div>
      {/* Focusable so the arrow keys pan it; drag pans it too (drawing-zoom.tsx). */}
      {/* biome-ignore lint/a11y/useSemanticElements: a scrolled area of a figure, not a form's fieldset. */}
      <div
        ref={area}
        class={`drawing-scroll view-${view.mode}`}
        role="group"
        aria-label={`${props.name}, drawn: scroll, drag or use the arrow keys to move around`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolled area takes focus so the keyboard can scroll it.
        tabIndex={0}
        onPointerDown={pan.onPointerDown}
      >
        {/* biome-ignore lint/a11y/useSemanticElements: an SVG drawing with buttons in it is a group, not a form's fieldset. */}
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: a node's click is a mouse shortcut; the run view's list of steps is the keyboard's way to the same thing. */}
        <svg
          ref={svg}
          role="group"
          aria-label={`${props.name}: ${props.graph.nodes.length} nodes, ${edgeCount} edges`}
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          {...svgSizing(view, layout.width, layout.height)}
          preserveAspectRatio="xMidYMin meet"
          onClick={(e) => {
            if (!props.onNodeClick || pan.wasDrag()) return;
            const node = (e.target as Element).closest?.("[data-node-id]");
            const id = node?.getAttribute("data-node-id");
            if (id && !(e.target as Element).closest?.(".toggle")) props.onNodeClick(id);
          }}
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
              selected={props.selected?.has(n.id) ?? false}
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
