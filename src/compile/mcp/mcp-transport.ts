/**
 * The official SDK's transport to one MCP server: stdio for a server started by `command`, streamable
 * HTTP for one at `url`. HTTP headers are computed for each request, so a header read from the run's
 * `context` carries the context of the run that makes the call (one connection, per-call credentials).
 */
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

export type ServerTarget =
  | {
      kind: "stdio";
      command: string;
      args: string[];
      /** Added to the SDK's default environment (PATH, HOME, …): the parent's other variables are not passed. */
      env: Record<string, string>;
      cwd: string;
    }
  | {
      kind: "http";
      url: string;
      /** The headers of one request, computed when it is sent (env, and the calling run's context). */
      headers: () => Record<string, string>;
    };

/**
 * The transport, and for stdio what the server last wrote to stderr: not shown as it comes (a
 * server's logs would mix into `graphspec run --json`'s stderr), but quoted when it fails.
 */
export interface OpenedTransport {
  transport: Transport;
  /** What a stdio server last wrote to stderr. */
  stderr: () => string;
  /**
   * Whether its process and pipes keep this process alive (stdio only): a compile given no
   * McpConnections holds them only during a request, so a script that never closes them still exits.
   */
  hold: (on: boolean) => void;
}

/** The stdio server's process, which the SDK's transport keeps to itself. */
type Spawned = { unref(): void; ref(): void } & Record<
  "stdin" | "stdout" | "stderr",
  { ref?(): void; unref?(): void } | null
>;

export function openTransport(target: ServerTarget, holdsProcess = true): OpenedTransport {
  if (target.kind === "stdio") {
    const transport = new StdioClientTransport({
      command: target.command,
      args: target.args,
      env: target.env,
      cwd: target.cwd,
      stderr: "pipe",
    });
    let tail = "";
    transport.stderr?.on("data", (chunk: Buffer) => {
      tail = (tail + chunk.toString("utf8")).slice(-4096);
    });
    const hold = (on: boolean) => {
      const child = (transport as unknown as { _process?: Spawned })._process;
      if (!child) return;
      for (const h of [child, child.stdin, child.stdout, child.stderr])
        (on ? h?.ref : h?.unref)?.call(h);
    };
    return { transport, stderr: () => tail, hold };
  }
  const transport = new StreamableHTTPClientTransport(new URL(target.url), {
    fetch: (url, init) => {
      // The optional stream of server-sent messages is a request that never ends: a connection
      // that must not hold the process answers it as a server without one does (405).
      if (!holdsProcess && (init?.method ?? "GET") === "GET")
        return Promise.resolve(new Response(null, { status: 405 }));
      const headers = new Headers(init?.headers);
      for (const [k, v] of Object.entries(target.headers())) headers.set(k, v);
      return fetch(url, { ...init, headers });
    },
  });
  return { transport, stderr: () => "", hold: () => {} };
}

/** The line of a server's stderr that says why it failed: its error, else its last line. */
export function stderrReason(text: string): string | undefined {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("at ") && l !== "^" && !/^throw /.test(l));
  return (lines.find((l) => /^[A-Za-z]*Error\b/.test(l)) ?? lines.at(-1))?.slice(0, 300);
}

/** How a message names the server's transport: `stdio: node tools/notes.mjs`, `http: URL`. */
export function transportName(target: ServerTarget): string {
  return target.kind === "stdio"
    ? `stdio: ${[target.command, ...target.args].join(" ")}`
    : `http: ${target.url}`;
}
