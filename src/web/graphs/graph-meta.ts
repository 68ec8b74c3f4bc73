/**
 * What `graphspec dev` says of a graph in its assistant's `metadata.graphspec` (docs/server.md
 * "Assistants in graphspec dev"; built by src/server/assistant-metadata.ts): the spec file, the
 * refused change's diagnostics, the version that serves, its MCP servers.
 */
import type { Assistant } from "@langchain/langgraph-sdk";

export interface PageDiagnostic {
  file: string;
  line: number;
  col: number;
  severity: "error" | "warning" | "info" | (string & {});
  rule: string;
  message: string;
  hint?: string;
}

/** An MCP server of the graph, as graphspec dev last found it, with the tools taken from it. */
export interface McpServerMeta {
  name: string;
  transport: "stdio" | "http";
  up: boolean | null;
  message?: string;
  hint?: string;
  tools: { name: string; description: string; schema: Record<string, unknown> }[];
}

export interface GraphMeta {
  file: string;
  diagnostics: PageDiagnostic[];
  refused: boolean;
  message?: string;
  served_version: number | null;
  mcp_servers?: McpServerMeta[];
}

export function graphMetaOf(a: Assistant): GraphMeta | undefined {
  const meta = (a.metadata as { graphspec?: GraphMeta } | null | undefined)?.graphspec;
  return meta && Array.isArray(meta.diagnostics) ? meta : undefined;
}

/** "2 errors, 1 warning", or undefined when there is nothing to say. */
export function diagnosticCount(meta: GraphMeta | undefined): string | undefined {
  if (!meta) return undefined;
  const count = (s: string) => meta.diagnostics.filter((d) => d.severity === s).length;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const errors = count("error") || (meta.refused && !meta.diagnostics.length ? 1 : 0);
  const warnings = count("warning");
  const parts = [
    errors ? plural(errors, "error") : "",
    warnings ? plural(warnings, "warning") : "",
  ];
  const text = parts.filter(Boolean).join(", ");
  return text || undefined;
}
