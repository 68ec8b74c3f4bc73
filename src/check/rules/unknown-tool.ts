import { listNames, suggest } from "../../diagnostics/suggest.js";
import { isObject } from "../../spec/data.js";
import type { CheckContext } from "../check-context.js";
import { mcpRecord, mcpTools } from "../mcp-tools.js";
import type { Rule } from "../rule.js";

const stringsAt = (list: unknown): [number, string][] =>
  Array.isArray(list)
    ? list.flatMap((v, i): [number, string][] => (typeof v === "string" ? [[i, v]] : []))
    : [];

function reportUndeclared(
  ctx: CheckContext,
  path: (string | number)[],
  tool: string,
  declared: string[],
): void {
  // With a catalog, `declared` holds its tools too (spec/catalog.ts): suggestions come from both.
  const catalog = ctx.doc.catalog?.doc.file;
  ctx.report("unknown-tool", path, {
    message: catalog
      ? `tool \`${tool}\` is declared neither in \`tools\` nor in the catalog \`${catalog}\``
      : `tool \`${tool}\` is not declared in \`tools\``,
    hint:
      suggest(tool, declared) ??
      `declare it under the top-level \`tools:\`${catalog ? " or in the catalog" : ""} with the \`module\` that exports it`,
  });
}

/**
 * Each tool taken from an MCP server is one the server has, as graphspec.lock.json records it
 * (mcp-lock reports a server whose record is missing or stale; nothing can be said of its tools).
 */
async function checkMcpTools(ctx: CheckContext): Promise<void> {
  const servers = isObject(ctx.spec.mcp_servers) ? ctx.spec.mcp_servers : {};
  for (const tool of (await mcpTools(ctx)).tools.values()) {
    // An `mcp:` naming no declared server is unknown-mcp-server's to report.
    if (!Object.hasOwn(servers, tool.server)) continue;
    const record = await mcpRecord(ctx, tool.server);
    if (record.state !== "current" || record.record.tools.has(tool.remote)) continue;
    const names = [...record.record.tools.keys()];
    ctx.report("unknown-tool", tool.path, {
      message: `MCP server \`${tool.server}\` has no tool \`${tool.remote}\` (graphspec.lock.json records what it lists)`,
      hint:
        suggest(tool.remote, names) ??
        (names.length ? `its tools: ${listNames(names, 12)}` : "it lists no tools"),
      at: tool.at,
    });
  }
}

/**
 * Every tool a node names (`tools`, `approve`, `tool`) is declared in the top-level `tools`, or
 * taken from an MCP server; and every MCP tool the spec takes exists.
 */
export const unknownTool: Rule = {
  name: "unknown-tool",
  async check(ctx) {
    await checkMcpTools(ctx);
    const mcp = await mcpTools(ctx);
    const own = isObject(ctx.spec.tools) ? Object.keys(ctx.spec.tools) : [];
    const declared = [...new Set([...own, ...mcp.tools.keys()])];
    // A server taking `all` of its tools with no current record gives names nobody can know here.
    const isDeclared = (t: string) =>
      Object.hasOwn(ctx.spec.tools ?? {}, t) || mcp.tools.has(t) || mcp.open;
    for (const [name, node] of Object.entries(ctx.spec.nodes ?? {})) {
      if (!isObject(node)) continue;
      const nodeTools = stringsAt(node.tools);
      for (const [i, tool] of nodeTools) {
        if (!isDeclared(tool)) reportUndeclared(ctx, ["nodes", name, "tools", i], tool, declared);
      }
      for (const [i, tool] of stringsAt(node.approve)) {
        const path = ["nodes", name, "approve", i];
        if (!isDeclared(tool)) reportUndeclared(ctx, path, tool, declared);
        else if (!nodeTools.some(([, t]) => t === tool)) {
          ctx.report("unknown-tool", path, {
            message: `\`${tool}\` needs approval but is not one of this node's \`tools\`, so the agent can never call it`,
            hint: `add \`${tool}\` to \`tools\`, or remove it from \`approve\``,
          });
        }
      }
      if (node.kind === "tool" && typeof node.tool === "string" && !isDeclared(node.tool)) {
        reportUndeclared(ctx, ["nodes", name, "tool"], node.tool, declared);
      }
    }
  },
};
