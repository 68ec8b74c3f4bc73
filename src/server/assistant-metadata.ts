/**
 * What an assistant says of its graph in `graphspec dev`: `metadata.graphspec` — the spec file, the
 * diagnostics of a refused change sitting in it, and the version that serves — so that a client
 * (the page) shows an invalid save where the person looks, through the API the SDK already reads.
 * Keys may be added here (a graph's model prices, say); none is removed or renamed.
 */
import { dirname, isAbsolute, relative, sep } from "node:path";
import type { McpServerView } from "../compile/mcp/mcp-connections.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { findProjectRoot } from "../spec/project-root.js";

/** Where a spec file stands in the development loop (graphspec dev's executor knows it). */
export interface ServedStatus {
  /** The version new runs get (1, 2, …); undefined before the file's first good build. */
  version: number | undefined;
  /** When that version came in; never built: when the file was last refused. */
  updatedAt: Date;
  /** What validate warns about in the version that serves. */
  warnings?: readonly Diagnostic[];
  /** The change sitting in the file that was refused, if any: the served version is older. */
  refused?: { message: string; diagnostics: readonly Diagnostic[] };
  /** Its MCP servers: up or down, and the tools taken from each, with their schemas. */
  mcp?: readonly McpServerView[];
}

export interface MetadataDiagnostic {
  file: string;
  line: number;
  col: number;
  severity: Diagnostic["severity"];
  rule: string;
  message: string;
  hint?: string;
}

export interface GraphspecMetadata {
  /** The spec file, relative to the project (the nearest folder with a package.json, .git, …). */
  file: string;
  /** The refused change's diagnostics; when what is in the file serves, its warnings (if any). */
  diagnostics: MetadataDiagnostic[];
  refused: boolean;
  /** The refused change in one line, when it has no diagnostics to say it (a module that throws). */
  message?: string;
  /** The version that serves; null when none does (the file never built). */
  served_version: number | null;
  /** Its MCP servers, when it has any: up (`true`), down (`false`, with why) or not used yet (`null`), and their tools. */
  mcp_servers?: McpServerView[];
}

const slashes = (p: string) => p.split(sep).join("/");

export function graphspecMetadata(path: string, status: ServedStatus): GraphspecMetadata {
  const root = findProjectRoot(dirname(path));
  const shown = (file: string) => slashes(isAbsolute(file) ? relative(root, file) : file);
  // A refused change: its findings (what the person must fix now); else the served version's warnings.
  const found = status.refused ? status.refused.diagnostics : (status.warnings ?? []);
  const diagnostics = found.map((d) => metadataDiagnostic(d, shown));
  return {
    file: shown(path),
    diagnostics,
    refused: status.refused !== undefined,
    ...(status.refused && !diagnostics.length ? { message: status.refused.message } : {}),
    served_version: status.version ?? null,
    ...(status.mcp?.length ? { mcp_servers: [...status.mcp] } : {}),
  };
}

/** A diagnostic as the API and `graphspec graphs --json` show it, its file as `shown` names it. */
export const metadataDiagnostic = (
  d: Diagnostic,
  shown: (file: string) => string,
): MetadataDiagnostic => ({
  file: shown(d.file),
  line: d.line,
  col: d.column,
  severity: d.severity,
  rule: d.rule,
  message: d.message,
  ...(d.hint ? { hint: d.hint } : {}),
});
