/**
 * The MCP connections of one executor: one per server, opened on first use and shared by every
 * graph (and every compile of one in `graphspec dev`) that declares the same server, closed with
 * the executor. A package user who compiles without an executor may pass one to `compile()` and
 * close it when done.
 */
import { dirname } from "node:path";
import type { McpServer } from "../../spec/spec-types.generated.js";
// Types only: the SDK loads with mcp-tools.ts, when a spec first uses a server.
import type { McpServerConnection } from "./mcp-server-connection.js";

/** A tool a spec takes from a server, as the model sees it. */
export interface McpToolView {
  name: string;
  description: string;
  /** Its arguments' JSON Schema (bound arguments left out). */
  schema: Record<string, unknown>;
}

/** A server of a spec as `graphspec dev` lists it (docs/dev.md). */
export interface McpServerView {
  name: string;
  transport: "stdio" | "http";
  /** Whether the last use reached it; null before any. */
  up: boolean | null;
  /** Why it is down, and what to do. */
  message?: string;
  hint?: string;
  /** The tools the spec takes from it, when it was last listed. */
  tools: McpToolView[];
}

export class McpConnections {
  /**
   * `holdProcess: false` (what `compile()` makes when given none): a stdio server's process keeps
   * this one alive only during a request, so a script that never calls `close()` still exits.
   */
  constructor(readonly options: { holdProcess?: boolean } = {}) {}

  private readonly byKey = new Map<string, McpServerConnection>();
  private readonly bySpec = new Map<string, Map<string, McpServerConnection>>();
  private readonly toolsBySpec = new Map<string, Map<string, McpToolView[]>>();
  /** Told the spec files whose server came back after being down. */
  onBack: ((specPath: string) => void) | undefined;

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
      const opened = connection;
      // The specs that use it, told when it is back (graphspec dev builds a refused one again).
      connection.onBack = () => {
        for (const [spec, servers] of this.bySpec)
          if ([...servers.values()].includes(opened)) this.onBack?.(spec);
      };
      this.byKey.set(key, connection);
    }
    const ofSpec = this.bySpec.get(specPath) ?? new Map<string, McpServerConnection>();
    ofSpec.set(name, connection);
    this.bySpec.set(specPath, ofSpec);
    return connection;
  }

  /** Notes the tools a spec took from its server `name` (what `describe` lists). */
  noteTools(specPath: string, name: string, tools: McpToolView[]): void {
    const ofSpec = this.toolsBySpec.get(specPath) ?? new Map<string, McpToolView[]>();
    ofSpec.set(name, tools);
    this.toolsBySpec.set(specPath, ofSpec);
  }

  /**
   * The servers of a spec, each with its state and the tools taken from it. A server that was
   * down is tried again in the background, so the next listing shows it back once it is.
   */
  describe(specPath: string): McpServerView[] {
    const tools = this.toolsBySpec.get(specPath);
    return [...(this.bySpec.get(specPath) ?? new Map<string, McpServerConnection>())].map(
      ([name, c]) => {
        if (c.status && !c.status.up) c.probe();
        const status = c.status;
        return {
          name,
          transport: c.target.kind,
          up: status ? status.up : null,
          ...(status && !status.up ? { message: status.message, hint: status.hint } : {}),
          tools: tools?.get(name) ?? [],
        };
      },
    );
  }

  /** Closes every connection: a stdio server's process ends with it. */
  async close(): Promise<void> {
    const all = [...this.byKey.values()];
    this.byKey.clear();
    this.bySpec.clear();
    this.toolsBySpec.clear();
    await Promise.all(all.map((c) => c.close()));
  }
}
