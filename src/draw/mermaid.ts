/**
 * A drawable graph as Mermaid `flowchart` text, made here rather than by LangGraph's
 * `drawMermaid` so nothing the spec says is lost: nodes shaped and coloured by kind, START/END,
 * edges chosen at run time dashed and labelled with their CEL condition, breakpoints and pause
 * points marked, Send fan-out and joins visible, and with xray each subgraph a `subgraph` block.
 *
 * Every text from the spec (names, conditions, router names) goes through `mermaidText`, so no
 * condition — quotes, `|`, `<>`, `#`, newlines, any unicode — can end a label early or inject
 * Mermaid syntax or HTML; ids are made here, never taken from node names.
 */
import {
  type DrawableEdge,
  type DrawableGraph,
  type DrawableNode,
  END_ID,
  START_ID,
} from "./drawable.js";
import { KIND_FILL, PALETTE } from "./palette.js";
import { distinctShortLabels, shortLabel } from "./short-label.js";

/** Characters shown as themselves in a quoted label; everything else becomes an entity code. */
const PLAIN = /^[A-Za-z0-9 _.,:/+*=!?()'-]$/;

/**
 * `text` as the inside of a quoted Mermaid label: whitespace runs (newlines included) as one space,
 * cut to `max` characters with an ellipsis (not at all with `Infinity`), and every character but
 * plain ASCII as Mermaid's entity code `#NNN;` (decimal code point), which Mermaid turns into the
 * character itself (control characters and lone surrogates into U+FFFD).
 */
export function mermaidText(text: string, max = 60): string {
  const one = shortLabel(oneLine(text), max);
  let out = "";
  for (const ch of one) {
    const code = ch.codePointAt(0)!;
    // Control characters and halves of surrogate pairs have no glyph: shown as U+FFFD.
    const shown =
      code < 0x20 || (code >= 0x7f && code < 0xa0) || (code >= 0xd800 && code < 0xe000)
        ? 0xfffd
        : code;
    out += PLAIN.test(ch) ? ch : `#${shown};`;
  }
  return out;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** Opening and closing of a node's shape, by kind (Mermaid's classic shapes, which GitHub draws). */
function shapeOf(kind: string): [string, string] {
  switch (kind) {
    case "start":
    case "end":
      return ['(["', '"])'];
    case "llm":
    case "agent":
      return ['("', '")'];
    case "tools":
    case "tool":
      return ['{{"', '"}}'];
    case "interrupt":
      return ['>"', '"]'];
    case "subgraph":
      return ['[["', '"]]'];
    default:
      return ['["', '"]'];
  }
}

const labelOf = (n: DrawableNode) => {
  const kind = n.metadata?.kind;
  if (kind === "start" || n.id.endsWith(START_ID)) return "START";
  if (kind === "end" || n.id.endsWith(END_ID)) return "END";
  return n.id.slice(n.id.lastIndexOf(":") + 1);
};

const kindOf = (n: DrawableNode) =>
  n.metadata?.kind ??
  (n.id.endsWith(START_ID) ? "start" : n.id.endsWith(END_ID) ? "end" : "function");

/**
 * The lines under a node's name: its kind and its marks, in words (a drawing never relies on
 * colour alone). The marks name things (tools it approves): none is cut — a long list goes on
 * over more lines of at most `max` characters, broken between marks and between names.
 */
function detailLines(n: DrawableNode, kind: string, max: number): string[] {
  if (kind === "start" || kind === "end") return [];
  const m = n.metadata;
  // Each mark's words, kept whole; a list of names may break after any of its commas.
  const marks: string[][] = [[kind]];
  for (const w of m?.interrupt ?? []) marks.push([`breakpoint ${w}`]);
  if (m?.pauses) {
    const tools = m.approve ?? [];
    marks.push(
      tools.length
        ? tools.map((t, i) => `${i ? "" : "approves "}${t}${i < tools.length - 1 ? "," : ""}`)
        : ["waits for a person"],
    );
  }
  if (m?.unreachable) marks.push(["unreachable"]);
  const lines: string[] = [];
  let line = "";
  for (const [mi, words] of marks.entries())
    for (const [wi, word] of words.entries()) {
      const sep = !line ? "" : wi === 0 && mi > 0 ? " · " : " ";
      if (line && Array.from(line + sep + word).length > max) {
        lines.push(line);
        line = word;
      } else line += sep + word;
    }
  if (line) lines.push(line);
  return lines;
}

export interface MermaidOptions {
  /**
   * Longest edge label, in characters, before it is cut with an ellipsis (conditions that begin
   * alike keep the part that tells them apart), and longest line under a node's name before its
   * marks go on to the next line. Node, subgraph and tool names are never cut. Default 60.
   */
  maxLabel?: number;
}

export function toMermaid(graph: DrawableGraph, options: MermaidOptions = {}): string {
  const max = options.maxLabel ?? 60;
  // Ids of our own: node names may hold characters Mermaid reads as syntax, and `end` is a keyword.
  const ids = new Map<string, string>();
  const used = new Set<string>();
  const idOf = (name: string, prefix = "n_") => {
    let id = ids.get(prefix + name);
    if (id) return id;
    const base = prefix + name.replace(/[^A-Za-z0-9_]/g, "_");
    id = base;
    for (let i = 2; used.has(id); i++) id = `${base}_${i}`;
    used.add(id);
    ids.set(prefix + name, id);
    return id;
  };

  const lines = ["flowchart TD"];
  const classes = new Map<string, string[]>();
  const addClass = (cls: string, id: string) => {
    const list = classes.get(cls) ?? [];
    list.push(id);
    classes.set(cls, list);
  };
  const nodeLine = (n: DrawableNode) => {
    const kind = kindOf(n);
    const [open, close] = shapeOf(kind);
    // A node's name is never cut: it is what a reader looks for, and two names may begin alike.
    const text = [labelOf(n), ...detailLines(n, kind, max)]
      .map((line) => mermaidText(line, Infinity))
      .join("<br/>");
    const id = idOf(n.id);
    addClass(`k_${kind in KIND_FILL ? kind : "set"}`, id);
    if (n.metadata?.interrupt?.length) addClass("breakpoint", id);
    else if (n.metadata?.pauses) addClass("pauses", id);
    if (n.metadata?.unreachable) addClass("unreachable", id);
    return `${id}${open}${text}${close}`;
  };

  // Nodes, each subgraph's inside a `subgraph` block (nested by their `parent:child` ids).
  const byParent = new Map<string | undefined, DrawableNode[]>();
  for (const n of graph.nodes) {
    const p = n.metadata?.parent;
    byParent.set(p, [...(byParent.get(p) ?? []), n]);
  }
  const clusters = [...byParent.keys()].filter((p): p is string => p !== undefined);
  // A nested cluster's parent may hold no node of its own: every prefix is a cluster too.
  for (const id of [...clusters]) {
    const parts = id.split(":");
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join(":");
      if (!clusters.includes(prefix)) clusters.push(prefix);
    }
  }
  const parentOf = (cluster: string) => {
    const cut = cluster.lastIndexOf(":");
    return cut > 0 ? cluster.slice(0, cut) : undefined;
  };
  const emit = (parent: string | undefined, indent: string) => {
    for (const n of byParent.get(parent) ?? []) lines.push(indent + nodeLine(n));
    for (const c of clusters.filter((c) => parentOf(c) === parent)) {
      lines.push(`${indent}subgraph ${idOf(c, "sg_")}["${mermaidText(c, Infinity)}"]`);
      emit(c, `${indent}  `);
      lines.push(`${indent}end`);
    }
  };
  emit(undefined, "  ");

  const known = new Set(graph.nodes.map((n) => n.id));
  // Conditions cut as one set (on the text Mermaid shows), so two that begin alike stay apart.
  const labels = distinctShortLabels(
    graph.edges.flatMap((e) => (e.data ? [oneLine(e.data)] : [])),
    max,
  );
  const arrow = (e: DrawableEdge, label: boolean) => {
    const shown = label && e.data ? mermaidText(labels.get(oneLine(e.data))!, Infinity) : "";
    const text = shown ? `|"${shown}"|` : "";
    if (e.send) return `==>${text}`;
    return e.conditional ? `-.->${text}` : `-->${text}`;
  };
  // A join (`from: [a, b]`): the sources meet at a small node, one edge goes on to the target.
  const joins = new Map<string, string>();
  for (const e of graph.edges) {
    if (!known.has(e.source) || !known.has(e.target)) continue;
    if (e.join && e.join.length > 1) {
      const key = `${e.join.join("\u0000")}\u0001${e.target}\u0001${e.kind ?? ""}\u0001${e.data ?? ""}`;
      let join = joins.get(key);
      if (!join) {
        join = idOf(String(joins.size), "join_");
        joins.set(key, join);
        lines.push(`  ${join}(("all"))`);
        addClass("join", join);
        lines.push(`  ${join} ${arrow(e, true)} ${idOf(e.target)}`);
      }
      lines.push(`  ${idOf(e.source)} --> ${join}`);
      continue;
    }
    lines.push(`  ${idOf(e.source)} ${arrow(e, true)} ${idOf(e.target)}`);
  }

  // Styles for the classes used, then which node has which.
  const styles: Record<string, string> = {
    join: `fill:${PALETTE.text},stroke:${PALETTE.text},color:${PALETTE.onTerminal}`,
    breakpoint: `stroke:${PALETTE.breakpoint},stroke-width:3px`,
    pauses: `stroke:${PALETTE.pauses},stroke-width:3px`,
    unreachable: "stroke-dasharray:4 3,opacity:0.6",
  };
  for (const [kind, fill] of Object.entries(KIND_FILL)) {
    const terminal = kind === "start" || kind === "end";
    styles[`k_${kind}`] =
      `fill:${fill},stroke:${terminal ? fill : PALETTE.stroke},color:${terminal ? PALETTE.onTerminal : PALETTE.text}`;
  }
  for (const cls of classes.keys()) lines.push(`  classDef ${cls} ${styles[cls]}`);
  for (const [cls, list] of classes) lines.push(`  class ${list.join(",")} ${cls}`);
  return `${lines.join("\n")}\n`;
}
