/**
 * The MCP connections of one executor: one per server, opened on first use and shared by every
 * graph (and every compile of one in `graphspec dev`) that declares the same server, closed with
 * the executor. A package user who compiles without an executor may pass one to `compile()` and
 * close it when done.
 */
import { dirname } from "node:path";
import type { McpServer } from "../../spec/spec-types.generated.js";
// Types only: the SDK loads with mcp-tools.ts, when a spec first uses a server.
import type { McpServerConnection, McpStatus } from "./mcp-server-connection.js";

export interface McpServerStatus {
  /** The spec file that declares it, and its name there. */
  spec: string;
  server: string;
  status: McpStatus | undefined;
}

export class McpConnections {
  private readonly byKey = new Map<string, McpServerConnection>();
  private readonly bySpec = new Map<string, Map<string, McpServerConnection>>();

  /** The connection to the server a spec declares as `name` (not opened until first used). */
  connection(
    specPath: string,
    name: string,
    server: McpServer,
    open: () => McpServerConnection,
  ): McpServerConnection {
    // The same declaration read from the same folder is the same server, whichever spec names it
    // (its environment is the executor's, the same for all).
    const key = JSON.stringify([dirname(specPath), server]);
    let connection = this.byKey.get(key);
    if (!connection) {
      connection = open();
      this.byKey.set(key, connection);
    }
    const ofSpec = this.bySpec.get(specPath) ?? new Map<string, McpServerConnection>();
    ofSpec.set(name, connection);
    this.bySpec.set(specPath, ofSpec);
    return connection;
  }

  /** How the servers of a spec stood when last used (undefined: never used yet). */
  statusOf(specPath: string): McpServerStatus[] {
    return [...(this.bySpec.get(specPath) ?? new Map()).entries()].map(([server, c]) => ({
      spec: specPath,
      server,
      status: c.status,
    }));
  }

  /** Closes every connection: a stdio server's process ends with it. */
  async close(): Promise<void> {
    const all = [...this.byKey.values()];
    this.byKey.clear();
    this.bySpec.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}
