#!/usr/bin/env node
/**
 * The notes service of graphs/mcp-notes.yaml: an MCP server over stdio, written with the official
 * SDK. `find_notes` searches a few team notes; `save_note` files one under its author. Offline, no
 * state kept between runs (a saved note is acknowledged, not stored), so every run sees the same notes.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const NOTES = [
  "2026-11-02 deploys: the billing service deploys on Tuesdays only",
  "2026-11-09 on-call: Ada is on call for login incidents this month",
  "2026-11-16 login: SSO outages are tracked in INC-42",
];

const TOOLS = [
  {
    name: "find_notes",
    description: "Finds the team's notes that mention a word.",
    inputSchema: {
      type: "object",
      properties: { query: { type: "string", description: "A word to look for" } },
      required: ["query"],
    },
  },
  {
    name: "save_note",
    description: "Saves a note for the team.",
    inputSchema: {
      type: "object",
      properties: {
        text: { type: "string", description: "The note" },
        author: { type: "string", description: "Who wrote it" },
      },
      required: ["text", "author"],
    },
  },
];

const server = new Server({ name: "notes", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  const args = request.params.arguments ?? {};
  const text = (t) => ({ content: [{ type: "text", text: t }] });
  if (request.params.name === "find_notes") {
    const query = String(args.query).toLowerCase();
    const found = NOTES.filter((n) => n.toLowerCase().includes(query));
    return text(found.length ? found.join("\n") : `no note mentions "${args.query}"`);
  }
  if (request.params.name === "save_note") {
    if (!String(args.text ?? "").trim()) return { ...text("a note needs text"), isError: true };
    return text(`saved for ${args.author}: ${args.text}`);
  }
  return { ...text(`no tool ${request.params.name}`), isError: true };
});
await server.connect(new StdioServerTransport());
