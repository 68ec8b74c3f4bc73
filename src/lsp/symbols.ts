/**
 * The spec's name under the cursor — a node, a state channel, a context key, a tool or a model —
 * and where it is declared, for hover and go-to-definition. Nodes and channels share one
 * namespace (a spec may not give both one name), so a bare word is looked up in both; after
 * `state.` or `context.` it is that section's.
 */
import { resolve } from "node:path";
import { diagnosticAtSpan, type SpecDocument } from "../spec/document.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";

export type Section = "nodes" | "state" | "context" | "tools" | "models";

export interface SpecSymbol {
  section: Section;
  name: string;
}

/** Where a declaration stands: its file (the spec's, or its catalog's) and 1-based range. */
export interface Declared {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

const WORD = /[A-Za-z_][\w-]*/g;

/** The name at `character` of `lineText`, if the spec declares one by that name. */
export function symbolAt(
  lineText: string,
  character: number,
  spec: GraphSpec,
): SpecSymbol | undefined {
  for (const m of lineText.matchAll(WORD)) {
    const start = m.index;
    const end = start + m[0].length;
    if (character < start || character > end) continue;
    const name = m[0];
    const before = lineText.slice(0, start);
    const has = (section: Section) => Object.hasOwn((spec[section] ?? {}) as object, name);
    if (/\bstate\.$/.test(before)) return has("state") ? { section: "state", name } : undefined;
    if (/\bcontext\.$/.test(before))
      return has("context") ? { section: "context", name } : undefined;
    for (const section of ["nodes", "state", "tools", "models", "context"] as const)
      if (has(section)) return { section, name };
    return undefined;
  }
  return undefined;
}

/** Where `symbol` is declared in `doc` (its key), in the spec or in the catalog it took it from. */
export function declarationOf(doc: SpecDocument, symbol: SpecSymbol): Declared {
  const span = doc.map.span([symbol.section, symbol.name], "key");
  const fromCatalog = doc.catalog && span[0] >= doc.catalog.base;
  const at = diagnosticAtSpan(doc, span, { rule: "schema", severity: "error", message: "" });
  return {
    path: fromCatalog ? doc.catalog!.doc.path : resolve(doc.path),
    line: at.line,
    column: at.column,
    endLine: at.endLine,
    endColumn: at.endColumn,
  };
}

/** What a hover says of a symbol, in Markdown. */
export function describe(symbol: SpecSymbol, spec: GraphSpec): string {
  const { section, name } = symbol;
  const json = (v: unknown) => `\`${JSON.stringify(v)}\``;
  if (section === "state") {
    const f = spec.state[name]!;
    const reducer = typeof f.reducer === "string" ? f.reducer : f.reducer ? "custom" : "replace";
    return [
      `**state channel** \`${name}\`: \`${f.type}\`, reducer \`${reducer}\`${"default" in f ? `, default ${json(f.default)}` : ""}`,
      f.description ?? "",
    ]
      .filter(Boolean)
      .join("\n\n");
  }
  if (section === "context") {
    const f = spec.context![name]!;
    return `**context** \`${name}\`: \`${f.type}\`${f.required === true ? ", required" : ""}${f.secret ? ", secret (masked, not stored)" : ""}${f.description ? `\n\n${f.description}` : ""}`;
  }
  if (section === "nodes") {
    const n = spec.nodes[name]! as { kind: string; description?: string; writes?: string[] };
    const into = (spec.edges ?? []).filter((e) => "to" in e && [e.to].flat().includes(name)).length;
    return [
      `**${n.kind} node** \`${name}\``,
      n.writes ? `writes ${n.writes.map((w) => `\`${w}\``).join(", ")}` : "",
      `${into} static edge${into === 1 ? "" : "s"} lead here`,
      n.description ?? "",
    ]
      .filter(Boolean)
      .join("\n\n");
  }
  if (section === "tools") {
    const t = spec.tools![name]! as {
      description?: string;
      schema?: unknown;
      module?: string;
      mcp?: string;
    };
    const from = t.module ? `module \`${t.module}\`` : t.mcp ? `MCP server \`${t.mcp}\`` : "";
    return [
      `**tool** \`${name}\`${from ? ` from ${from}` : ""}`,
      t.description ?? "",
      t.schema ? `arguments:\n\n\`\`\`json\n${JSON.stringify(t.schema, null, 2)}\n\`\`\`` : "",
    ]
      .filter(Boolean)
      .join("\n\n");
  }
  const m = spec.models![name]! as { model: string };
  return `**model** \`${name}\`: \`${m.model}\``;
}
