/**
 * An MCP server over streamable HTTP on 127.0.0.1, written with the official SDK and served from
 * the test's own process (stateless: a server per request), so a test can change the tools it
 * offers between two requests — a remote server deployed anew — and require a bearer token.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export interface HttpMcpServer {
  /** The endpoint, `http://127.0.0.1:PORT/mcp`. */
  url: string;
  /** Which tools it offers: `v1` lookup_order; `v2` lookup_order with an `include_items` flag, and refund_order. */
  version: "v1" | "v2";
  /** The bearer token it requires; undefined: none. */
  token: string | undefined;
  /** How many HTTP requests it has been sent: a test can tell whether anything reached it. */
  requests: number;
  close(): Promise<void>;
}

function mcpServer(version: "v1" | "v2"): McpServer {
  const server = new McpServer({ name: "orders", version: "1.0.0" });
  const order_id = z.string().describe("The order's id, e.g. A-1001.");
  const answer = (text: string) => ({ content: [{ type: "text" as const, text }] });
  if (version === "v1") {
    server.registerTool(
      "lookup_order",
      { description: "Look an order up.", inputSchema: { order_id } },
      async (args) => answer(`order ${args.order_id}: shipped`),
    );
  } else {
    server.registerTool(
      "lookup_order",
      { description: "Look an order up.", inputSchema: { order_id, include_items: z.boolean() } },
      async (args) => answer(`order ${args.order_id}: shipped`),
    );
  }
  if (version === "v2") {
    server.registerTool(
      "refund_order",
      { description: "Refund an order.", inputSchema: { order_id: z.string() } },
      async (args) => answer(`refunded ${args.order_id}`),
    );
  }
  return server;
}

async function handle(state: HttpMcpServer, req: IncomingMessage, res: ServerResponse) {
  state.requests++;
  if (state.token !== undefined && req.headers.authorization !== `Bearer ${state.token}`) {
    res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
    return;
  }
  if (req.method !== "POST") {
    res.writeHead(405).end();
    return;
  }
  let body = "";
  for await (const chunk of req) body += chunk;
  const server = mcpServer(state.version);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, JSON.parse(body));
}

export async function startHttpMcpServer(token?: string): Promise<HttpMcpServer> {
  const http = createServer((req, res) => {
    handle(state, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const state: HttpMcpServer = {
    url: `http://127.0.0.1:${port}/mcp`,
    version: "v1",
    token,
    requests: 0,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
  return state;
}
