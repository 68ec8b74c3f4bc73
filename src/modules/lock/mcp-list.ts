/**
 * `graphspec lock`'s one contact with an MCP server: connect (start it over stdio, or reach it
 * over streamable HTTP) with the official SDK's client, list every tool (following pages), and
 * close (which stops a started server). Only `lock` imports this, and the SDK only when it runs:
 * validate never connects.
 */
import type { LockedMcpTool } from "./lock-file.js";
import { sorted } from "./lock-file.js";

export type McpTarget =
  | {
      transport: "stdio";
      command: string;
      args: string[];
      cwd: string;
      env: Record<string, string>;
    }
  | { transport: "http"; url: string; headers: Record<string, string> };

export type McpListing =
  | { ok: true; tools: Map<string, LockedMcpTool> }
  | { ok: false; reason: string };

/** A server listing more is refused (a lock is for review, not a dump). */
const MAX_TOOLS = 2000;
const MAX_PAGES = 100;
/** What of a failed server's stderr is quoted: its last characters. */
const STDERR_TAIL = 2000;
const STDERR_LINES = 8;

const seconds = (ms: number) => `${ms / 1000}s`;

export async function listMcpTools(target: McpTarget, timeoutMs: number): Promise<McpListing> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const client = new Client({ name: "graphspec-lock", version: "1.0.0" });
  let stderr = "";
  let transport: import("@modelcontextprotocol/sdk/shared/transport.js").Transport;
  if (target.transport === "stdio") {
    const { StdioClientTransport, getDefaultEnvironment } = await import(
      "@modelcontextprotocol/sdk/client/stdio.js"
    );
    const stdio = new StdioClientTransport({
      command: target.command,
      args: target.args,
      cwd: target.cwd,
      env: { ...getDefaultEnvironment(), ...target.env },
      stderr: "pipe",
    });
    stdio.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    transport = stdio;
  } else {
    const { StreamableHTTPClientTransport } = await import(
      "@modelcontextprotocol/sdk/client/streamableHttp.js"
    );
    transport = new StreamableHTTPClientTransport(new URL(target.url), {
      requestInit: { headers: target.headers },
    });
  }
  const signal = AbortSignal.timeout(timeoutMs);
  const options = { signal, timeout: timeoutMs };
  try {
    await client.connect(transport, options);
    const tools = new Map<string, LockedMcpTool>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const listed = await client.listTools(cursor ? { cursor } : {}, options);
      for (const tool of listed.tools) {
        tools.set(tool.name, {
          inputSchema: sorted(tool.inputSchema) as Record<string, unknown>,
          ...(tool.description ? { description: tool.description } : {}),
        });
      }
      if (tools.size > MAX_TOOLS)
        return { ok: false, reason: `it lists more than ${MAX_TOOLS} tools` };
      cursor = listed.nextCursor;
      if (!cursor) return { ok: true, tools };
    }
    return { ok: false, reason: `it lists tools on more than ${MAX_PAGES} pages` };
  } catch (e) {
    const code = (e as { code?: unknown })?.code;
    const message = (e as Error)?.message ?? String(e);
    // The SDK's HTTP errors carry the status as `code`, not in their message.
    const reason = signal.aborted
      ? `it did not answer within ${seconds(timeoutMs)}`
      : target.transport === "http" && typeof code === "number" && code >= 400 && code < 600
        ? `HTTP ${code}: ${message}`
        : message;
    // Its last lines, without stack frames: Node's own reason (`Error: Cannot find module …`)
    // comes before a dozen of them.
    const tail = stderr
      .split("\n")
      .map((l) => l.trimEnd())
      .filter((l) => l.trim() && !/^\s*at\s/.test(l))
      .slice(-STDERR_LINES)
      .join("\n  ");
    return { ok: false, reason: tail ? `${reason}; its stderr:\n  ${tail}` : reason };
  } finally {
    await client.close().catch(() => {});
  }
}
