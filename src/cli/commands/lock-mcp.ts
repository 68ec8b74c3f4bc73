/**
 * `graphspec lock`'s MCP part: the servers the specs declare (`mcp_servers`), each started or
 * reached once with its `env` and `headers` templates evaluated over the environment (and
 * `--context`, for a header that reads the run's context), its tools listed and recorded with
 * the server's identity (mcp-identity.ts), and what changed since the lock on disk, said in words.
 */
import { CompileError } from "../../compile/compile-error.js";
import { mcpServerTarget } from "../../compile/mcp/mcp-target.js";
import type { ServerTarget } from "../../compile/mcp/mcp-transport.js";
import { ExprEnvironment } from "../../expr/index.js";
import {
  type LockedMcpServer,
  type McpServerIdentity,
  mcpServerIdentity,
  type Shared,
  type ToolLock,
} from "../../modules/index.js";
import { isObject } from "../../spec/data.js";
import type { SpecDocument } from "../../spec/document.js";
import type { McpServer } from "../../spec/spec-types.generated.js";

/** A server to lock: its declaration, where it is declared, and its identity. */
export interface WantedServer {
  name: string;
  decl: Record<string, unknown>;
  /** The spec, as messages name it. */
  spec: string;
  doc: SpecDocument;
  identity: McpServerIdentity;
}

const sameIdentity = (a: McpServerIdentity, b: McpServerIdentity) =>
  a.sha256 === b.sha256 &&
  a.files.size === b.files.size &&
  [...a.files].every(([k, v]) => b.files.get(k) === v);

/**
 * Adds the servers `doc` declares to `wanted` (by name: one name is one server in a project).
 * Returns the problems: a name declared as two different servers.
 */
export async function collectServers(
  doc: SpecDocument,
  wanted: Map<string, WantedServer>,
  shared: Shared,
): Promise<string[]> {
  const data = doc.data;
  if (!isObject(data) || !isObject(data.mcp_servers)) return [];
  const problems: string[] = [];
  for (const [name, decl] of Object.entries(data.mcp_servers)) {
    if (!isObject(decl) || (typeof decl.command !== "string" && typeof decl.url !== "string"))
      continue;
    const identity = await mcpServerIdentity(decl, doc.path, doc.root, shared);
    const known = wanted.get(name);
    if (!known) {
      wanted.set(name, { name, decl, spec: doc.file, doc, identity });
    } else if (!sameIdentity(known.identity, identity)) {
      problems.push(
        `MCP server \`${name}\` is declared as two different servers, in ${known.spec} and in ${doc.file}: give them different names (the lock records one server by name)`,
      );
    }
  }
  return problems;
}

/** How lock starts or reaches the server: as a run would (mcp-target.ts), with `--context` for headers. */
function targetOf(
  server: WantedServer,
  context: Record<string, unknown> | undefined,
): { ok: true; target: ServerTarget } | { ok: false; problem: string } {
  const data = isObject(server.doc.data) ? server.doc.data : {};
  const expr = ExprEnvironment.for({ state: data.state, context: data.context });
  try {
    const target = mcpServerTarget(
      server.doc,
      server.name,
      server.decl as McpServer,
      expr,
      process.env,
      context ?? false,
    );
    return { ok: true, target };
  } catch (e) {
    if (e instanceof CompileError) return { ok: false, problem: e.message };
    throw e;
  }
}

/**
 * Connects to each server and lists its tools. Each one that cannot be reached is said on
 * `error` (naming the spec and the server); the map holds those that answered.
 */
export async function lockServers(
  wanted: Map<string, WantedServer>,
  options: { timeout: number; context: Record<string, unknown> | undefined },
  error: (line: string) => void,
): Promise<{ servers: Map<string, LockedMcpServer>; failed: boolean }> {
  const servers = new Map<string, LockedMcpServer>();
  let failed = false;
  if (!wanted.size) return { servers, failed };
  // The MCP SDK is an optional peer (checked by the caller): loaded only when there are servers.
  const { listMcpTools } = await import("../../compile/mcp/list-tools.js");
  for (const server of [...wanted.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    const how = targetOf(server, options.context);
    if (!how.ok) {
      error(how.problem);
      failed = true;
      continue;
    }
    const listed = await listMcpTools(how.target, options.timeout);
    if (!listed.ok) {
      const what =
        how.target.kind === "stdio"
          ? `could not be started (\`${[how.target.command, ...how.target.args].join(" ")}\`)`
          : `could not be reached at ${how.target.url}`;
      error(`${server.spec}: MCP server \`${server.name}\` ${what}: ${listed.reason}`);
      failed = true;
      continue;
    }
    const { sha256, files } = server.identity;
    servers.set(server.name, { sha256, files, tools: listed.tools });
  }
  return { servers, failed };
}

const list = (names: string[]) => names.map((n) => `\`${n}\``).join(", ");

/** What differs between the MCP servers the lock on disk records and those just listed, a line per server. */
export function mcpDrift(
  before: ToolLock | undefined,
  after: Map<string, LockedMcpServer>,
): string[] {
  const old = before?.mcpServers ?? new Map<string, LockedMcpServer>();
  const lines: string[] = [];
  for (const name of [...new Set([...old.keys(), ...after.keys()])].sort()) {
    const was = old.get(name);
    const now = after.get(name);
    if (!was && now) {
      lines.push(`MCP server \`${name}\`: new (${now.tools.size} tools)`);
      continue;
    }
    if (was && !now) {
      lines.push(`MCP server \`${name}\`: no longer declared`);
      continue;
    }
    if (!was || !now) continue;
    const parts: string[] = [];
    if (was.sha256 !== now.sha256) parts.push("its configuration changed");
    const files = [...new Set([...was.files.keys(), ...now.files.keys()])].filter(
      (f) => was.files.get(f) !== now.files.get(f),
    );
    if (files.length) parts.push(`${list(files.sort())} changed`);
    const added = [...now.tools.keys()].filter((t) => !was.tools.has(t)).sort();
    const removed = [...was.tools.keys()].filter((t) => !now.tools.has(t)).sort();
    const changed = [...now.tools.keys()]
      .filter((t) => {
        const w = was.tools.get(t);
        return w && JSON.stringify(w) !== JSON.stringify(now.tools.get(t));
      })
      .sort();
    if (added.length) parts.push(`tool${added.length > 1 ? "s" : ""} ${list(added)} added`);
    if (removed.length) parts.push(`tool${removed.length > 1 ? "s" : ""} ${list(removed)} removed`);
    if (changed.length)
      parts.push(
        `tool${changed.length > 1 ? "s" : ""} ${list(changed)} changed (description or arguments)`,
      );
    if (parts.length) lines.push(`MCP server \`${name}\`: ${parts.join("; ")}`);
  }
  return lines;
}
