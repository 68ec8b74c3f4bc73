/**
 * A laid-out drawing (layout.ts) as a standalone SVG document, drawn as the web page draws it
 * (src/web/draw: the same outlines, path and words from shapes.ts, the same colours from
 * palette.ts) but with its styles inline, so any viewer, and resvg for `--format png`, shows it
 * without the page's CSS. Every text from the spec is XML-escaped: a description or condition
 * holding `<script>` stays text.
 */
import type { LaidEdge, LaidJoin, LaidNode, Layout } from "./layout.js";
import { KIND_FILL, PALETTE } from "./palette.js";
import { describeEdge, describeNode, ICONS, pathOf, shapePath } from "./shapes.js";

/** Fonts in order: the page's system font where there is one, then what Debian and others ship. */
export const FONT_FAMILY =
  "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif";
const MONO_FAMILY =
  "ui-monospace, Menlo, Consolas, 'Liberation Mono', 'DejaVu Sans Mono', monospace";

/** `text` safe as XML character data or a double-quoted attribute; characters XML 1.0 forbids are dropped. */
export function xmlText(text: string): string {
  return (
    text
      .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      // As references, so XML's line-end and attribute-value normalisation keep them as written.
      .replace(/[\t\n\r]/g, (c) => `&#${c.charCodeAt(0)};`)
  );
}

const attrs = (a: Record<string, string | number | undefined>) =>
  Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlText(String(v))}"`)
    .join("");

const TERMINAL = new Set(["start", "end"]);

function nodeSvg(n: LaidNode): string {
  const m = n.node.metadata;
  const terminal = TERMINAL.has(n.kind);
  const fill = KIND_FILL[n.kind] ?? KIND_FILL.set;
  const middle = n.width / 2;
  const out = [
    `<g${attrs({
      class: `node kind-${n.kind}${m?.unreachable ? " unreachable" : ""}`,
      "data-node-id": n.id,
      "data-kind": n.kind,
      transform: `translate(${n.x - n.width / 2},${n.y - n.height / 2})`,
      opacity: m?.unreachable ? 0.6 : undefined,
    })}>`,
    `<title>${xmlText(describeNode(n))}</title>`,
    `<path${attrs({
      d: shapePath(n.kind, n.width, n.height),
      fill,
      stroke: terminal ? fill : PALETTE.stroke,
      "stroke-width": n.kind === "agent" ? 2.5 : 1.5,
      "stroke-dasharray": m?.unreachable ? "4 3" : undefined,
    })}/>`,
  ];
  if (n.kind === "subgraph")
    out.push(
      `<rect${attrs({ x: 4, y: 4, width: n.width - 8, height: n.height - 8, rx: 2, fill: "none", stroke: PALETTE.stroke })}/>`,
    );
  out.push(
    `<text${attrs({
      class: "name",
      x: middle,
      y: terminal ? n.height / 2 + 4 : 19,
      "text-anchor": "middle",
      "font-size": terminal ? 12 : 13,
      "font-weight": terminal ? undefined : 600,
      fill: terminal ? PALETTE.onTerminal : PALETTE.text,
    })}>${xmlText(n.label)}</text>`,
  );
  if (!terminal)
    out.push(
      `<text${attrs({ class: "kind", x: middle, y: 35, "text-anchor": "middle", "font-size": 11, fill: PALETTE.muted })}>${xmlText(m?.unreachable ? `${n.kind} · unreachable` : n.kind)}</text>`,
    );
  const marks = [
    ...(m?.interrupt ?? []).map((w) => ({
      icon: "breakpoint" as const,
      text: `Breakpoint: pauses ${w} this node`,
      color: PALETTE.breakpoint,
    })),
    ...(m?.pauses
      ? [{ icon: "person" as const, text: "Waits for a person", color: PALETTE.pauses }]
      : []),
  ];
  marks.forEach((mark, i) => {
    out.push(
      `<g class="mark icon-${mark.icon}" transform="translate(${n.width - 11 - i * 17},11)">`,
    );
    out.push(`<title>${xmlText(mark.text)}</title>`);
    for (const part of ICONS[mark.icon])
      out.push(
        `<${part.tag}${attrs({ ...part.attrs, fill: part.paint === "white" ? "#ffffff" : mark.color })}/>`,
      );
    out.push("</g>");
  });
  out.push("</g>");
  return out.join("");
}

function edgeSvg(e: LaidEdge): string {
  const d = e.edge;
  const path = pathOf(e.points);
  const intoJoin = e.target.startsWith("join:");
  const out = [
    `<g${attrs({
      class: [
        "edge",
        d.conditional ? "conditional" : "",
        d.send ? "send" : "",
        d.parallel ? "parallel" : "",
      ]
        .filter(Boolean)
        .join(" "),
      "data-source": d.source,
      "data-target": d.target,
    })}>`,
    `<title>${xmlText(describeEdge(e))}</title>`,
  ];
  // A Send edge is a double line: a wide stroke with a narrow white one down its middle.
  if (d.send)
    out.push(
      `<path${attrs({ d: path, fill: "none", stroke: PALETTE.muted, "stroke-width": 5 })}/>`,
    );
  out.push(
    `<path${attrs({
      d: path,
      fill: "none",
      stroke: d.send ? PALETTE.background : PALETTE.muted,
      "stroke-width": d.send ? 2 : 1.5,
      "stroke-linejoin": "round",
      "stroke-dasharray": d.conditional && !d.send ? "6 4" : undefined,
      "marker-end": intoJoin ? undefined : "url(#gs-arrow)",
    })}/>`,
  );
  if (e.label) {
    const l = e.label;
    out.push(
      `<g class="edge-label"><rect${attrs({ x: l.x - l.width / 2, y: l.y - l.height / 2, width: l.width, height: l.height, rx: 3, fill: PALETTE.labelFill, stroke: PALETTE.labelStroke })}/>`,
      `<text${attrs({ x: l.x, y: l.y + 4, "text-anchor": "middle", "font-size": 11, "font-family": MONO_FAMILY, fill: PALETTE.text })}>${xmlText(l.text)}</text></g>`,
    );
  }
  out.push("</g>");
  return out.join("");
}

const joinSvg = (j: LaidJoin) =>
  `<g class="join" data-join-target="${xmlText(j.target)}"><title>${xmlText(`Join: ${j.target} runs once ${j.sources.join(" and ")} have all finished`)}</title><rect${attrs({ x: j.x - j.width / 2, y: j.y - j.height / 2, width: j.width, height: j.height, rx: 2, fill: PALETTE.text })}/></g>`;

/** The SVG document of `layout`, titled `name`. */
export function toSvg(layout: Layout, name: string): string {
  const w = Math.max(layout.width, 1);
  const h = Math.max(layout.height, 1);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg"${attrs({ width: w, height: h, viewBox: `0 0 ${w} ${h}`, "font-family": FONT_FAMILY, role: "img", "aria-label": `Drawing of ${name}` })}>`,
    `<title>${xmlText(`Drawing of ${name}`)}</title>`,
    // orient="auto", not the page's SVG 2 "auto-start-reverse": resvg draws that one unturned.
    `<defs><marker id="gs-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="${PALETTE.muted}"/></marker></defs>`,
    `<rect width="100%" height="100%" fill="${PALETTE.background}"/>`,
  ];
  for (const c of layout.clusters)
    out.push(
      `<g class="cluster"${attrs({ "data-cluster-id": c.id })}><title>${xmlText(`Subgraph ${c.id}`)}</title><rect${attrs({ x: c.x - c.width / 2, y: c.y - c.height / 2, width: c.width, height: c.height, rx: 6, fill: "none", stroke: PALETTE.stroke, "stroke-dasharray": "2 3" })}/><text${attrs({ x: c.x - c.width / 2 + 8, y: c.y - c.height / 2 + 14, "font-size": 12, fill: PALETTE.muted })}>${xmlText(c.label)}</text></g>`,
    );
  for (const e of layout.edges) out.push(edgeSvg(e));
  for (const j of layout.joins) out.push(joinSvg(j));
  for (const n of layout.nodes) out.push(nodeSvg(n));
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
