/**
 * A small MCP server over stdio, written with the official SDK, as a project would write its own:
 * tests copy it into their project (`servers/tickets.mjs`) and name it in a spec's `mcp_servers`.
 * `--marker FILE` writes FILE when it starts, so a test can tell whether anything started it.
 */
import { writeFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const marker = process.argv.indexOf("--marker");
if (marker > 0) writeFileSync(process.argv[marker + 1], "started");

const server = new McpServer({ name: "tickets", version: "1.0.0" });
server.registerTool(
  "search_tickets",
  {
    description: "Search the support tickets.",
    inputSchema: { query: z.string(), limit: z.number().int().min(1).max(50).optional() },
  },
  async ({ query, limit }) => ({
    content: [{ type: "text", text: `${limit ?? 10} tickets about ${query}` }],
  }),
);
server.registerTool(
  "close_ticket",
  {
    description: "Close a ticket.",
    inputSchema: { id: z.number().int(), reason: z.enum(["fixed", "duplicate"]) },
  },
  async ({ id, reason }) => ({ content: [{ type: "text", text: `closed ${id} (${reason})` }] }),
);
await server.connect(new StdioServerTransport());
