/**
 * What a spec uses of its MCP servers, read from the spec alone (no connection): which servers
 * its tools come from, and whether a server's headers read the run's context.
 */
import type { GraphSpec, McpTool } from "../../spec/spec-types.generated.js";
import { readsContext } from "../models/run-fields.js";

export const isMcpTool = (t: unknown): t is McpTool =>
  typeof t === "object" && t !== null && "mcp" in t && typeof t.mcp === "string";

/** The servers whose tools the spec uses: one taking tools, or one a `tools:` entry names. */
export function usedServers(spec: GraphSpec): string[] {
  const servers = spec.mcp_servers ?? {};
  const named = Object.values(spec.tools ?? {}).flatMap((t) => (isMcpTool(t) ? [t.mcp] : []));
  return Object.keys(servers).filter((s) => servers[s]!.tools !== undefined || named.includes(s));
}

/** Whether a server's HTTP headers read the run's context (its calls need the calling node's). */
export const serverReadsContext = (spec: GraphSpec): boolean =>
  Object.values(spec.mcp_servers ?? {}).some((s) =>
    Object.values(s.headers ?? {}).some((h) => typeof h === "string" && readsContext(h)),
  );
