/**
 * The geometry and words of a drawing, shared by the web page (src/web/draw) and `graphspec draw
 * --format svg|png` (svg.ts): each node's outline by kind, an edge's path through dagre's bend
 * points, and what a node or an edge is in words (an SVG `<title>`: hover, screen readers).
 */
import type { LaidEdge, LaidNode } from "./layout.js";

export type NodeStatus = "idle" | "running" | "done" | "interrupted" | "error";

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
export function describeNode(n: LaidNode, status: NodeStatus = "idle"): string {
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

/** Dagre's bend points, joined by straight segments with rounded corners (CSS). */
export const pathOf = (points: { x: number; y: number }[]) =>
  points.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");

export function describeEdge(e: LaidEdge): string {
  const d = e.edge;
  const to = `${d.source} → ${d.target}`;
  if (d.kind === "route") return d.default ? `${to} otherwise (default)` : `${to} when ${d.when}`;
  if (d.kind === "router") return `${to}: router ${d.router} may choose it`;
  if (d.kind === "map") return `${to}: once per item of ${d.over}, in parallel (Send)`;
  if (d.kind === "on_error") return `${to} when ${d.source} fails`;
  if (d.parallel)
    return `${to}, in parallel with ${d.parallel.filter((t) => t !== d.target).join(", ")}`;
  return to;
}

/** One SVG element of an icon: its tag and attributes; `paint` names what fills it. */
export interface IconPart {
  tag: "circle" | "rect" | "path";
  attrs: Record<string, number | string>;
  paint: "mark" | "white";
}

/**
 * The drawing's marks as shapes, not emoji (fonts differ; shapes look the same everywhere), each
 * centred on (0, 0), about 14 px wide: a breakpoint (two bars in a disc, like a pause button) and
 * a person (who must answer).
 */
export const ICONS: Record<"breakpoint" | "person", IconPart[]> = {
  breakpoint: [
    { tag: "circle", attrs: { r: 7 }, paint: "mark" },
    { tag: "rect", attrs: { x: -3.5, y: -3.5, width: 2.5, height: 7 }, paint: "white" },
    { tag: "rect", attrs: { x: 1, y: -3.5, width: 2.5, height: 7 }, paint: "white" },
  ],
  person: [
    { tag: "circle", attrs: { cy: -3.5, r: 3 }, paint: "mark" },
    { tag: "path", attrs: { d: "M-6,7 C-6,1 6,1 6,7 Z" }, paint: "mark" },
  ],
};
