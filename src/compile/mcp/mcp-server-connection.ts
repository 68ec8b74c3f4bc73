/**
 * One MCP server's connection, opened on first use and shared by every call: the official SDK's
 * Client over its stdio or streamable HTTP transport. It is what LangChain's adapters
 * (`loadMcpTools`) are given as their client, so they list the tools and convert each call's
 * result, while this side owns the connection's life: a server that died since the last call is
 * reconnected once before the next; a server that cannot be reached, or that dies during a call,
 * is `mcp-unavailable`; a call longer than `timeout_ms` is `tool-timeout`.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { GraphspecRunError } from "../graphspec-run-error.js";
import { openTransport, type ServerTarget, stderrReason, transportName } from "./mcp-transport.js";

/**
 * Where a call that fails for the connection's sake (not the tool's) leaves its error: the adapters
 * turn whatever a client throws into a ToolException message for the model, and these errors are
 * the run's, not the model's to read (mcp-tools.ts throws them again).
 */
export const connectionFailure = new AsyncLocalStorage<{ error?: GraphspecRunError }>();

/** What listing a server's tools and calling them needs of a client (what the adapters call). */
export interface McpClientLike {
  listTools: Client["listTools"];
  callTool: Client["callTool"];
  readResource: Client["readResource"];
}

export type McpStatus = { up: true } | { up: false; message: string; hint: string };

export class McpServerConnection {
  private client: Promise<Client> | undefined;
  private transport: Transport | undefined;
  /** Set when the transport closed or failed: the next use connects again. */
  private dead = false;
  private closed = false;
  /** Requests in flight, for a connection that holds the process only then. */
  private inFlight = 0;
  private hold: (on: boolean) => void = () => {};
  /** What the stdio server last wrote to stderr. */
  private stderr: () => string = () => "";
  status: McpStatus | undefined;
  /** Called when a server that was down is reached again. */
  onBack: (() => void) | undefined;

  constructor(
    readonly name: string,
    readonly target: ServerTarget,
    readonly timeoutMs: number,
    /** Whether the server's process keeps this one alive between requests (an executor's: yes). */
    private readonly holdsProcess = true,
  ) {}

  /** The connected client, connecting (again) when there is none or the last one died. */
  private connected(): Promise<Client> {
    if (this.closed) return Promise.reject(this.unavailable("the executor was closed"));
    if (this.client && !this.dead) return this.client;
    const old = this.transport;
    this.dead = false;
    void old?.close().catch(() => undefined);
    const client = new Client({ name: "graphspec", version: "1" });
    const connecting = (async () => {
      const { transport, stderr, hold } = openTransport(this.target, this.holdsProcess);
      this.transport = transport;
      this.stderr = stderr;
      this.hold = hold;
      client.onclose = () => {
        if (this.transport === transport) this.dead = true;
      };
      try {
        // `timeout_ms` is a tool call's; starting a server may take longer (the SDK's default).
        await client.connect(transport);
      } catch (e) {
        void transport.close().catch(() => undefined);
        throw this.unavailable(reasonOf(e), e);
      }
      const wasDown = this.status?.up === false;
      this.status = { up: true };
      if (wasDown) this.onBack?.();
      return client;
    })();
    this.client = connecting;
    connecting.catch(() => {
      if (this.client === connecting) this.client = undefined;
    });
    return connecting;
  }

  /** The client the adapters are given: each request goes through the live connection. */
  readonly adapterClient: McpClientLike = {
    listTools: ((params, options) =>
      this.request((c) => c.listTools(params, options), "list its tools")) as Client["listTools"],
    callTool: ((params, schema, options) =>
      this.request(
        (c) => c.callTool(params, schema, { ...options, timeout: this.timeoutMs }),
        `call \`${params.name}\``,
        params.name,
      )) as Client["callTool"],
    readResource: ((params, options) =>
      this.request(
        (c) => c.readResource(params, options),
        "read a resource",
      )) as Client["readResource"],
  };

  private async request<T>(
    send: (c: Client) => Promise<T>,
    what: string,
    tool?: string,
  ): Promise<T> {
    this.inFlight++;
    try {
      return await this.attempt(send, what, tool);
    } catch (e) {
      const slot = connectionFailure.getStore();
      if (slot && e instanceof GraphspecRunError) slot.error = e;
      throw e;
    } finally {
      if (--this.inFlight === 0 && !this.holdsProcess) this.hold(false);
    }
  }

  private async attempt<T>(
    send: (c: Client) => Promise<T>,
    what: string,
    tool: string | undefined,
    again = true,
  ): Promise<T> {
    const client = await this.connected();
    if (!this.holdsProcess) this.hold(true);
    try {
      return await send(client);
    } catch (e) {
      if (e instanceof McpError && e.code === ErrorCode.RequestTimeout && tool !== undefined) {
        throw new GraphspecRunError(
          "tool-timeout",
          `tool \`${tool}\` of MCP server \`${this.name}\` did not answer within ${this.timeoutMs} ms`,
          {
            hint: `raise \`mcp_servers.${this.name}.timeout_ms\`, or make the tool answer sooner`,
            cause: e,
          },
        );
      }
      // An error the server answered with is the tool's (a bad argument, an unknown tool).
      const timedOut = e instanceof McpError && e.code === ErrorCode.RequestTimeout;
      if (e instanceof McpError && e.code !== ErrorCode.ConnectionClosed && !timedOut) throw e;
      this.dead = true;
      // A streamable HTTP server that restarted no longer knows the session (HTTP 404): the
      // request never ran, so it is sent once more on a new session.
      if (again && httpStatus(e) === 404) return this.attempt(send, what, tool, false);
      throw this.unavailable(`the connection failed while trying to ${what}: ${reasonOf(e)}`, e);
    }
  }

  private unavailable(failure: string, cause?: unknown): GraphspecRunError {
    const said = stderrReason(this.stderr());
    const reason = said ? `${failure}; its stderr says: ${said}` : failure;
    const hint =
      this.target.kind === "stdio"
        ? `check that \`${this.target.command}\` starts and speaks MCP on stdio (run it by hand), then run again; the thread's last checkpoint is kept`
        : `check that the server at ${this.target.url} is up, then run again; the thread's last checkpoint is kept`;
    this.status = { up: false, message: reason, hint };
    return new GraphspecRunError(
      "mcp-unavailable",
      `MCP server \`${this.name}\` (${transportName(this.target)}) is unavailable: ${reason}`,
      { hint, ...(cause === undefined ? {} : { cause }) },
    );
  }

  private probing: Promise<unknown> | undefined;

  /** Tries to reach a server that was down (one try at a time); its `status` says how it went. */
  probe(): void {
    this.probing ??= this.request((c) => c.listTools(), "list its tools")
      .catch(() => undefined)
      .finally(() => {
        this.probing = undefined;
      });
  }

  /** Closes the connection (a stdio server's process ends with it). */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    const c = await client?.catch(() => undefined);
    await (c ? c.close() : this.transport?.close())?.catch(() => undefined);
  }
}

function httpStatus(e: unknown): number | undefined {
  const code = (e as { code?: unknown })?.code;
  return (e as Error)?.message?.startsWith("Streamable HTTP error") && typeof code === "number"
    ? code
    : undefined;
}

/** A failure in one line: the system error's code when there is one (ECONNREFUSED, ENOENT). */
function reasonOf(e: unknown): string {
  const cause = (e as { cause?: { code?: unknown } })?.cause;
  const code = (e as { code?: unknown })?.code ?? cause?.code;
  const message = String((e as Error)?.message ?? e).split("\n")[0]!;
  return typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
}
