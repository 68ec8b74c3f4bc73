import { listNames, suggest } from "../../diagnostics/suggest.js";
import { isObject } from "../../spec/data.js";
import type { Rule } from "../rule.js";

/** A tool declared with `mcp:` names a server of `mcp_servers` (checked without connecting). */
export const unknownMcpServer: Rule = {
  name: "unknown-mcp-server",
  check(ctx) {
    const servers = isObject(ctx.spec.mcp_servers) ? Object.keys(ctx.spec.mcp_servers) : [];
    for (const [name, tool] of Object.entries(ctx.spec.tools ?? {})) {
      if (!isObject(tool) || typeof tool.mcp !== "string") continue;
      if (servers.includes(tool.mcp)) continue;
      ctx.report("unknown-mcp-server", ["tools", name, "mcp"], {
        message: `tool \`${name}\` names MCP server \`${tool.mcp}\`, which \`mcp_servers\` does not declare`,
        hint: servers.length
          ? (suggest(tool.mcp, servers) ?? `declared servers: ${listNames(servers)}`)
          : `declare it: \`mcp_servers: { ${tool.mcp}: { command: …, args: [ … ] } }\` (or \`url:\`)`,
      });
    }
  },
};
