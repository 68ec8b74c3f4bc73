/**
 * One node of a drawing: a shape by kind (rounded for model calls, hexagon for tools, octagon for
 * a person's answer, a framed box for subgraphs, a pill for START/END), its name, its kind written
 * under it (never colour alone), badges for breakpoints and pause points, and its run status.
 */
import type { LaidNode } from "../../draw/layout.js";
import { describeNode, type NodeStatus, shapePath } from "../../draw/shapes.js";
import { BreakpointIcon, PersonIcon } from "./icons.js";

export type { NodeStatus };

const STATUS_GLYPH: Record<NodeStatus, string> = {
  idle: "",
  running: "●",
  done: "✓",
  interrupted: "‖",
  error: "✕",
};

export function NodeShape(props: {
  node: LaidNode;
  status: NodeStatus;
  /** Marked as selected (the run view's step). */
  selected?: boolean;
  /** For a subgraph node, or an expanded one's cluster: open or close it in place. */
  onToggle?: () => void;
}) {
  const { node: n, status } = props;
  const m = n.node.metadata;
  const left = n.x - n.width / 2;
  const top = n.y - n.height / 2;
  const terminal = n.kind === "start" || n.kind === "end";
  // A subgraph's button takes the right of the node (layout.ts gave it the room).
  const middle = (props.onToggle ? n.width - 24 : n.width) / 2;
  const classes = [
    "node",
    `kind-${n.kind}`,
    m?.unreachable ? "unreachable" : "",
    props.selected ? "selected" : "",
  ].filter(Boolean);
  const marks = [
    ...(m?.interrupt ?? []).map((w) => ({
      icon: <BreakpointIcon />,
      text: `Breakpoint: pauses ${w} this node`,
    })),
    ...(m?.pauses ? [{ icon: <PersonIcon />, text: "Waits for a person" }] : []),
  ];
  return (
    <g
      class={classes.join(" ")}
      data-node-id={n.id}
      data-kind={n.kind}
      data-status={status}
      transform={`translate(${left},${top})`}
    >
      <title>{describeNode(n, status)}</title>
      <path class="shape" d={shapePath(n.kind, n.width, n.height)} />
      {n.kind === "subgraph" ? (
        <rect class="frame" x={4} y={4} width={n.width - 8} height={n.height - 8} rx={2} />
      ) : null}
      <text class="name" x={middle} y={terminal ? n.height / 2 + 4 : 19} text-anchor="middle">
        {n.label}
      </text>
      {terminal ? null : (
        <text class="kind" x={middle} y={35} text-anchor="middle">
          {m?.unreachable ? `${n.kind} · unreachable` : n.kind}
        </text>
      )}
      {marks.map((mark, i) => (
        <g key={mark.text} class="mark" transform={`translate(${n.width - 11 - i * 17},11)`}>
          <title>{mark.text}</title>
          {mark.icon}
        </g>
      ))}
      {STATUS_GLYPH[status] ? (
        <text class="status-glyph" x={6} y={14}>
          {STATUS_GLYPH[status]}
        </text>
      ) : null}
      {props.onToggle ? (
        <ToggleButton
          x={n.width - 23}
          y={(n.height - 16) / 2}
          label={`Expand subgraph ${n.id}`}
          expanded={false}
          onToggle={props.onToggle}
        />
      ) : null}
    </g>
  );
}

/** A small button inside the drawing: focusable, Enter and Space press it, named for readers. */
export function ToggleButton(props: {
  x: number;
  y: number;
  label: string;
  expanded: boolean;
  onToggle: () => void;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG has no <button>; role, tabindex and keys make one.
    <g
      class="toggle"
      role="button"
      tabIndex={0}
      aria-label={props.label}
      aria-expanded={props.expanded}
      transform={`translate(${props.x},${props.y})`}
      onClick={(e) => {
        e.stopPropagation();
        props.onToggle();
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          props.onToggle();
        }
      }}
    >
      <title>{props.label}</title>
      <rect width={18} height={16} rx={3} />
      <text x={9} y={12} text-anchor="middle">
        {props.expanded ? "−" : "+"}
      </text>
    </g>
  );
}
