/**
 * One node of a drawing: a shape by kind (rounded for model calls, hexagon for tools, octagon for
 * a person's answer, a framed box for subgraphs, a pill for START/END), its name, its kind written
 * under it (never colour alone), badges for breakpoints and pause points, and its run status.
 */
import type { LaidNode } from "../../draw/layout.js";
import { BreakpointIcon, PersonIcon } from "./icons.js";

export type NodeStatus = "idle" | "running" | "done" | "interrupted" | "error";

const STATUS_GLYPH: Record<NodeStatus, string> = {
  idle: "",
  running: "●",
  done: "✓",
  interrupted: "‖",
  error: "✕",
};

/** The outline of a node of `kind`, `w` × `h`, from its top-left corner. */
export function shapePath(kind: string, w: number, h: number): string {
  const r = (rx: number) =>
    `M${rx},0 H${w - rx} A${rx},${rx} 0 0 1 ${w},${rx} V${h - rx} A${rx},${rx} 0 0 1 ${w - rx},${h} H${rx} A${rx},${rx} 0 0 1 0,${h - rx} V${rx} A${rx},${rx} 0 0 1 ${rx},0 Z`;
  const cut = Math.min(12, h / 3);
  switch (kind) {
    case "start":
    case "end":
      return r(h / 2);
    case "llm":
    case "agent":
      return r(12);
    case "tools":
    case "tool":
      return `M${cut},0 H${w - cut} L${w},${h / 2} L${w - cut},${h} H${cut} L0,${h / 2} Z`;
    case "interrupt":
      return `M${cut},0 H${w - cut} L${w},${cut} V${h - cut} L${w - cut},${h} H${cut} L0,${h - cut} V${cut} Z`;
    default:
      return r(3);
  }
}

/** What a node is, in words: its `<title>` (hover, screen readers). */
export function describeNode(n: LaidNode, status: NodeStatus): string {
  const m = n.node.metadata;
  const lines = [`${n.id} (${n.kind})`];
  if (m?.description) lines.push(m.description);
  if (m?.parent) lines.push(`Inside subgraph ${m.parent}`);
  for (const w of m?.interrupt ?? []) lines.push(`Breakpoint: the run pauses ${w} this node`);
  if (m?.pauses)
    lines.push(
      m.approve?.length
        ? `Waits for a person to approve: ${m.approve.join(", ")}`
        : "Waits for a person's answer",
    );
  if (m?.subgraph) lines.push(`Runs the graph ${m.subgraph}`);
  if (m?.unreachable) lines.push("Unreachable: no path from START leads here; it never runs");
  if (status !== "idle") lines.push(`Status: ${status}`);
  return lines.join("\n");
}

export function NodeShape(props: {
  node: LaidNode;
  status: NodeStatus;
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
  const classes = ["node", `kind-${n.kind}`, m?.unreachable ? "unreachable" : ""].filter(Boolean);
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
