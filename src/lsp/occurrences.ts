/**
 * Every place a spec names one of its nodes, state channels or tools, with its exact span — what
 * references and rename work from. Node names come from the control-flow model's references
 * (edges, routes, `on_error.goto`, `interrupts`); channels from the state, the writes and
 * `input`/`output` lists, and from the reads inside CEL and `${{ }}` templates, found by parsing
 * them (expr/field-reads.ts), never by searching the text. A subgraph node's `input` keys and the
 * `output.X` of its `output` templates name the child spec's channels: they are kept apart
 * (`mount`), for the child's channel.
 */
import { fieldReads, isTemplate, parseTemplate } from "../expr/index.js";
import { buildGraph, END, START } from "../spec/control-flow.js";
import { isObject } from "../spec/data.js";
import type { SpecDocument } from "../spec/document.js";
import { spanInScalar } from "../spec/scalar-spans.js";
import type { Path, Span } from "../spec/source-map.js";

export type NameSection = "nodes" | "state" | "tools";

export interface Occurrence {
  section: NameSection;
  name: string;
  /** In the document's source-map space: the spec, then its catalog, then its prompt files. */
  span: Span;
  declaration: boolean;
  /** A channel of the child spec mounted by this subgraph node, not one of this spec's. */
  mount?: string;
}

type Obj = Record<string, unknown>;
const entries = (v: unknown): [string, unknown][] => (isObject(v) ? Object.entries(v) : []);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The text a span covers: the spec's (and catalog's) or a prompt file's. */
export function textAt(doc: SpecDocument, span: Span): string {
  const prompt = doc.prompts?.find((p) => span[0] >= p.base && span[0] <= p.base + p.text.length);
  if (prompt) return prompt.text.slice(span[0] - prompt.base, span[1] - prompt.base);
  return doc.map.text.slice(span[0], span[1]);
}

/** Records `name` at `span` in `out` only when the text there is the name (quotes stripped). */
export function addOccurrence(
  doc: SpecDocument,
  out: Occurrence[],
  section: NameSection,
  name: string,
  span: Span | undefined,
  extra: { declaration?: boolean; mount?: string } = {},
): void {
  if (!span) return;
  let [s, e] = span;
  const raw = textAt(doc, [s, e]);
  if (raw.length >= 2 && (raw[0] === '"' || raw[0] === "'") && raw.at(-1) === raw[0]) {
    s++;
    e--;
  }
  if (textAt(doc, [s, e]) !== name) return;
  out.push({ section, name, span: [s, e], declaration: extra.declaration ?? false, ...extra });
}

/** Where a spec names its nodes, channels and tools. */
export function occurrencesOf(doc: SpecDocument): Occurrence[] {
  const out: Occurrence[] = [];
  const spec = isObject(doc.data) ? doc.data : {};
  const add = (
    section: NameSection,
    name: string,
    span: Span | undefined,
    extra: { declaration?: boolean; mount?: string } = {},
  ) => addOccurrence(doc, out, section, name, span, extra);
  const key = (
    section: NameSection,
    path: Path,
    extra?: { declaration?: boolean; mount?: string },
  ) => {
    if (doc.map.has(path)) add(section, String(path.at(-1)), doc.map.span(path, "key"), extra);
  };
  const value = (section: NameSection, path: Path, name: unknown) => {
    if (typeof name === "string" && doc.map.has(path)) add(section, name, doc.map.span(path));
  };

  for (const [name] of entries(spec.nodes)) key("nodes", ["nodes", name], { declaration: true });
  for (const [name] of entries(spec.state)) key("state", ["state", name], { declaration: true });
  for (const [name] of entries(spec.tools)) key("tools", ["tools", name], { declaration: true });

  for (const ref of buildGraph(spec).references)
    if (ref.name !== START && ref.name !== END) value("nodes", ref.path, ref.name);

  for (const side of ["input", "output"] as const)
    for (const [i, c] of list(spec[side]).entries()) value("state", [side, i], c);

  /** `write: channel` or `write: { channel: template }`. */
  const write = (path: Path, w: unknown) => {
    if (typeof w === "string") value("state", path, w);
    else for (const [k] of entries(w)) key("state", [...path, k]);
  };
  /** Every `state.X` read in the templates at any depth of `v`, or in bare CEL (`cel`). */
  const reads = (path: Path, v: unknown, cel = false, mount?: string) => {
    if (typeof v === "string") {
      if (cel) expressionReads(path, v, v, 0, mount);
      else if (isTemplate(v)) {
        let parts: ReturnType<typeof parseTemplate>["parts"];
        try {
          parts = parseTemplate(v).parts;
        } catch {
          return; // a template that does not parse names nothing for sure
        }
        for (const p of parts)
          if (p.kind === "expr") expressionReads(path, v, p.source, p.start, mount);
      }
      return;
    }
    if (Array.isArray(v))
      for (const [i, item] of v.entries()) reads([...path, i], item, false, mount);
    else for (const [k, item] of entries(v)) reads([...path, k], item, false, mount);
  };
  const expressionReads = (
    path: Path,
    value: string,
    source: string,
    at: number,
    mount?: string,
  ) => {
    const variables = mount ? ["state", "output"] : ["state"];
    for (const r of fieldReads(source, variables) ?? []) {
      const span = spanInScalar(doc, path, value, at + r.start, at + r.end);
      // `output.X` in a subgraph's `output` is the child's final state: the child's channel.
      if (r.variable === "output") add("state", r.field, span, { mount: mount! });
      else add("state", r.field, span);
    }
  };

  for (const [name, raw] of entries(spec.nodes)) {
    if (!isObject(raw)) continue;
    const node = raw as Obj;
    const at = (...p: (string | number)[]): Path => ["nodes", name, ...p];
    for (const field of ["system", "prompt", "messages", "args", "payload", "values"])
      reads(at(field), node[field]);
    if (node.write !== undefined) {
      write(at("write"), node.write);
      reads(at("write"), node.write);
    }
    if (node.kind === "set") for (const [k] of entries(node.values)) key("state", at("values", k));
    if (node.kind === "function")
      for (const [i, c] of list(node.writes).entries()) value("state", at("writes", i), c);
    if (node.kind === "tool") value("tools", at("tool"), node.tool);
    for (const field of ["tools", "approve"])
      for (const [i, t] of list(node[field]).entries()) value("tools", at(field, i), t);
    if (node.kind === "subgraph") {
      for (const [k, v] of entries(node.input)) {
        key("state", at("input", k), { mount: name });
        reads(at("input", k), v);
      }
      for (const [k, v] of entries(node.output)) {
        key("state", at("output", k));
        reads(at("output", k), v, false, name);
      }
    }
    if (isObject(node.on_error) && node.on_error.write !== undefined) {
      write(at("on_error", "write"), node.on_error.write);
      reads(at("on_error", "write"), node.on_error.write);
    }
  }
  list(spec.edges).forEach((edge, i) => {
    if (!isObject(edge)) return;
    list(edge.route).forEach((r, j) => {
      if (isObject(r)) reads(["edges", i, "route", j, "when"], r.when, true);
    });
    if (isObject(edge.map)) {
      reads(["edges", i, "map", "over"], edge.map.over, true);
      for (const [k, v] of entries(edge.map.with)) {
        key("state", ["edges", i, "map", "with", k]);
        reads(["edges", i, "map", "with", k], v);
      }
    }
  });
  for (const [name, tool] of entries(spec.tools))
    if (isObject(tool)) reads(["tools", name, "bind"], tool.bind);
  return out;
}
