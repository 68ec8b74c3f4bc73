/**
 * What validate knows of the spec's MCP servers without starting or reaching any: each server's
 * record in `graphspec.lock.json` (current, stale — its configuration or script changed since —
 * or missing), and the tools a node may name through them: each `tools:` entry with `mcp:`, and
 * the tools a server gives under their own names (`mcp_servers.X.tools`: a list, or `all` — the
 * recorded names). Memoized per document.
 */
import {
  type LockedMcpServer,
  type LockRead,
  mcpServerIdentity,
  readLock,
} from "../modules/index.js";
import { isObject } from "../spec/data.js";
import type { Path } from "../spec/source-map.js";
import type { CheckContext } from "./check-context.js";
import { sharedOf } from "./module-refs.js";

export type ServerRecord =
  /** This check does not read the lock (compile's own check, `toolLock: false`). */
  | { state: "unread" }
  | { state: "missing"; why: string }
  | { state: "stale"; why: string }
  | { state: "current"; record: LockedMcpServer };

/** A tool a node may name that an MCP server gives. */
export interface McpTool {
  /** Its name in the spec. */
  name: string;
  server: string;
  /** Its name on the server. */
  remote: string;
  /** Where the spec names it on the server (for a finding about that name). */
  path: Path;
  at: "key" | "value";
}

const serversOf = (ctx: CheckContext): [string, Record<string, unknown>][] =>
  isObject(ctx.spec.mcp_servers)
    ? Object.entries(ctx.spec.mcp_servers).filter((e): e is [string, Record<string, unknown>] =>
        isObject(e[1]),
      )
    : [];

/** The project's lock as this check reads it for MCP servers: undefined when it does not read it. */
export function mcpLock(ctx: CheckContext): Promise<LockRead> | undefined {
  // Read whatever `loadModules` says: no mode of validate connects to a server.
  if (ctx.options.inspector || ctx.options.toolLock === false) return undefined;
  return ctx.shared(`graphspec:lock:${ctx.doc.root}`, () => readLock(ctx.doc.root));
}

async function computeRecord(ctx: CheckContext, name: string): Promise<ServerRecord> {
  const read = mcpLock(ctx);
  if (!read) return { state: "unread" };
  const lock = await read;
  if (!lock) return { state: "missing", why: "there is no graphspec.lock.json" };
  if (!lock.ok)
    return { state: "missing", why: `graphspec.lock.json cannot be used: ${lock.problem}` };
  const record = lock.lock.mcpServers.get(name);
  if (!record) return { state: "missing", why: "it is not in graphspec.lock.json" };
  const decl = (ctx.spec.mcp_servers as Record<string, Record<string, unknown>>)[name];
  const now = await mcpServerIdentity(decl ?? {}, ctx.doc.path, ctx.doc.root, sharedOf(ctx));
  if (now.sha256 !== record.sha256) {
    return {
      state: "stale",
      why: `how it is started or reached (${typeof decl?.url === "string" ? "`url`" : "`command`, `args`, `cwd` or `env`"}) has changed since graphspec.lock.json was written`,
    };
  }
  const changed = [...new Set([...now.files.keys(), ...record.files.keys()])]
    .filter((f) => now.files.get(f) !== record.files.get(f))
    .sort();
  if (changed.length) {
    return {
      state: "stale",
      why: `${changed.map((f) => `\`${f}\``).join(", ")}, which it runs, ${changed.length > 1 ? "have" : "has"} changed since graphspec.lock.json was written`,
    };
  }
  return { state: "current", record };
}

/** The record of server `name` (declared in `mcp_servers`), as it stands against the spec. */
export function mcpRecord(ctx: CheckContext, name: string): Promise<ServerRecord> {
  return ctx.memo(`mcp:record:${name}`, () => computeRecord(ctx, name));
}

export interface McpTools {
  /** The tools, by their name in the spec. */
  tools: Map<string, McpTool>;
  /**
   * Whether a server takes `all` its tools while its record is not current: the names it gives
   * cannot be known, so a node naming an undeclared tool may be naming one of them.
   */
  open: boolean;
  /**
   * A name two servers give (neither renamed by a `tools:` entry): which one a node would call
   * depends on the order of `mcp_servers`, so it is an error (name-collision). The later one.
   */
  clashes: { tool: McpTool; first: string }[];
}

async function computeTools(ctx: CheckContext): Promise<McpTools> {
  const tools = new Map<string, McpTool>();
  const clashes: McpTools["clashes"] = [];
  const own = isObject(ctx.spec.tools) ? ctx.spec.tools : {};
  // A `tools:` entry of the same name is the spec's own choice: the server's tool is not taken.
  const give = (tool: McpTool) => {
    if (Object.hasOwn(own, tool.name)) return;
    const known = tools.get(tool.name);
    if (known && known.server !== tool.server) clashes.push({ tool, first: known.server });
    else tools.set(tool.name, tool);
  };
  let open = false;
  for (const [server, decl] of serversOf(ctx)) {
    if (decl.tools === "all") {
      const r = await mcpRecord(ctx, server);
      if (r.state !== "current") {
        open = true;
        continue;
      }
      for (const remote of r.record.tools.keys())
        give({
          name: remote,
          server,
          remote,
          path: ["mcp_servers", server, "tools"],
          at: "value",
        });
    } else if (Array.isArray(decl.tools)) {
      decl.tools.forEach((remote, i) => {
        if (typeof remote === "string")
          give({
            name: remote,
            server,
            remote,
            path: ["mcp_servers", server, "tools", i],
            at: "value",
          });
      });
    }
  }
  // An entry of `tools:` is the spec's own choice of name: it wins over a server's.
  for (const [name, decl] of Object.entries(own)) {
    if (!isObject(decl) || typeof decl.mcp !== "string") continue;
    const named = typeof decl.tool === "string";
    tools.set(name, {
      name,
      server: decl.mcp,
      remote: named ? (decl.tool as string) : name,
      path: named ? ["tools", name, "tool"] : ["tools", name],
      at: named ? "value" : "key",
    });
  }
  return { tools, open, clashes };
}

/** The tools the spec's MCP servers give, by their name in the spec. */
export function mcpTools(ctx: CheckContext): Promise<McpTools> {
  return ctx.memo("mcp:tools", () => computeTools(ctx));
}

/** The recorded facts of an MCP tool, when its server's record is current and lists it. */
export async function recordedMcpTool(ctx: CheckContext, name: string) {
  const tool = (await mcpTools(ctx)).tools.get(name);
  if (!tool || !isObject(ctx.spec.mcp_servers?.[tool.server])) return undefined;
  const r = await mcpRecord(ctx, tool.server);
  return r.state === "current" ? r.record.tools.get(tool.remote) : undefined;
}
