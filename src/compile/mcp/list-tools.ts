/**
 * `graphspec lock`'s one contact with an MCP server: connect (start it over stdio, or reach it
 * over streamable HTTP) with the official SDK's client, list every tool (following pages), and
 * close (which stops a started server), over the transport runs use (mcp-transport.ts). Only `lock`
 * imports this: validate never connects.
 */
import type { LockedMcpTool } from "../../modules/index.js";
import { sorted } from "../../modules/lock/lock-file.js";
import { openTransport, type ServerTarget } from "./mcp-transport.js";

export type McpListing =
  | { ok: true; tools: Map<string, LockedMcpTool> }
  | { ok: false; reason: string };

/** A server listing more is refused (a lock is for review, not a dump). */
const MAX_TOOLS = 2000;
const MAX_PAGES = 100;
/** What of a failed server's stderr is quoted: its last lines. */
const STDERR_LINES = 8;

const seconds = (ms: number) => `${ms / 1000}s`;

export async function listMcpTools(target: ServerTarget, timeoutMs: number): Promise<McpListing> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const client = new Client({ name: "graphspec-lock", version: "1.0.0" });
  // Held: lock waits for the listing, then closes (which stops a started server).
  const { transport, stderr } = openTransport(target, true);
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
      : target.kind === "http" && typeof code === "number" && code >= 400 && code < 600
        ? `HTTP ${code}: ${message}`
        : message;
    // Its last lines, without stack frames: Node's own reason (`Error: Cannot find module …`)
    // comes before a dozen of them.
    const tail = stderr()
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
