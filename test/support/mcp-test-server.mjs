#!/usr/bin/env node
import { randomUUID } from "node:crypto";
/**
 * A small MCP server for tests, written with the official SDK: over stdio by default, or over
 * streamable HTTP on 127.0.0.1 with `--http` (it prints `listening PORT` on stdout; `--port N`
 * picks the port, so a restarted server comes back at the same address). Its tools:
 * `echo` (text back), `add` (two numbers), `fail` (an MCP tool error, `isError`), `slow` (answers
 * after `ms`), `crash` (the process exits during the call), `whoami` (the request's
 * `authorization` header over HTTP, `$MCP_TEST_SECRET` over stdio).
 * With `$MCP_TEST_PID_FILE` set it writes its pid there, for tests that check it is gone.
 */
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

if (process.env.MCP_TEST_PID_FILE)
  writeFileSync(process.env.MCP_TEST_PID_FILE, String(process.pid));

const TOOLS = [
  {
    name: "echo",
    description: "Says the text back.",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string", description: "What to say back" } },
      required: ["text"],
    },
  },
  {
    name: "add",
    description: "Adds two numbers.",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
  },
  { name: "fail", description: "Always fails.", inputSchema: { type: "object", properties: {} } },
  {
    name: "slow",
    description: "Answers after `ms` milliseconds.",
    inputSchema: { type: "object", properties: { ms: { type: "number" } }, required: ["ms"] },
  },
  {
    name: "crash",
    description: "Exits during the call.",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "whoami",
    description: "Who the caller is.",
    inputSchema: { type: "object", properties: {} },
  },
];

const text = (t) => ({ content: [{ type: "text", text: t }] });

function makeServer() {
  const server = new Server(
    { name: "graphspec-test", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const args = request.params.arguments ?? {};
    switch (request.params.name) {
      case "echo":
        return text(`echo: ${args.text}`);
      case "add":
        return text(String(Number(args.a) + Number(args.b)));
      case "fail":
        return { ...text("the notes store is locked"), isError: true };
      case "slow":
        await new Promise((r) => setTimeout(r, Number(args.ms)));
        return text(`slept ${args.ms} ms`);
      case "crash":
        process.exit(3);
        break;
      case "whoami": {
        const auth = extra.requestInfo?.headers?.authorization;
        return text(String(auth ?? process.env.MCP_TEST_SECRET ?? "nobody"));
      }
    }
    return { ...text(`no tool ${request.params.name}`), isError: true };
  });
  return server;
}

const argv = process.argv.slice(2);
if (argv.includes("--http")) {
  const portArg = argv.indexOf("--port");
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    const id = req.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (!transport) {
      if (typeof id === "string") {
        res.writeHead(404).end(
          JSON.stringify({
            jsonrpc: "2.0",
            error: { code: -32001, message: "Session not found" },
            id: null,
          }),
        );
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      await makeServer().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  http.listen(portArg >= 0 ? Number(argv[portArg + 1]) : 0, "127.0.0.1", () => {
    process.stdout.write(`listening ${http.address().port}\n`);
  });
} else {
  await makeServer().connect(new StdioServerTransport());
}
