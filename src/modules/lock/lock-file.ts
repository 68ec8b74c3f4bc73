/**
 * `graphspec.lock.json`: what each tool module exports — every export's facts, a tool's argument
 * JSON Schema included — recorded by `graphspec lock` where the code is trusted, with the hash of
 * the module's content, so that `graphspec validate` knows tools' arguments without running
 * anything. The file is read as untrusted input (it comes with the pull request, like the specs):
 * size-bounded, shape-checked, facts read as a loading process's answer is. It also records the
 * tools of the MCP servers the specs declare (`mcp_servers`), as their servers listed them.
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { isObject } from "../../spec/data.js";
import type { ExportFacts } from "../export-facts.js";
import { readFacts } from "../isolated/answer.js";

export const LOCK_FILE = "graphspec.lock.json";
/** The format's version; a lock of another version is refused with the command that rewrites it. */
export const LOCK_VERSION = 1;
/** The command that writes the lock, as hints name it. */
export const LOCK_COMMAND = "npx graphspec lock";
/** An MCP tool's description longer than this is cut when read (the lock is untrusted input). */
const MAX_DESCRIPTION = 64 * 1024;
/** A lock bigger than this is not read. */
const MAX_LOCK_BYTES = 16 * 1024 * 1024;

export interface LockedModule {
  /** The hash of the module and the project files it imports (module-hash.ts). */
  sha256: string;
  /** Every export of the module, by name, as a loading process described it. */
  exports: ReadonlyMap<string, ExportFacts>;
}

/** One tool of an MCP server, as the server listed it. */
export interface LockedMcpTool {
  description?: string;
  /** The tool's arguments, the JSON Schema the server gave (any draft), keys sorted. */
  inputSchema: Record<string, unknown>;
}

export interface LockedMcpServer {
  /** The hash of the server's configuration (mcp-identity.ts): what starts or reaches it. */
  sha256: string;
  /** The project files its command and arguments name, by path from the project root: their hashes. */
  files: ReadonlyMap<string, string>;
  /** Every tool the server listed, by name. */
  tools: ReadonlyMap<string, LockedMcpTool>;
}

export interface ToolLock {
  /** Module files by their path from the project root, with `/`. */
  modules: ReadonlyMap<string, LockedModule>;
  /** MCP servers by their name in the specs' `mcp_servers` (one name, one server per project). */
  mcpServers: ReadonlyMap<string, LockedMcpServer>;
  /**
   * The folders (from the project root, with `/`; `.` the root) of the specs it was written for:
   * a spec in one of them, or below, must find its tool modules in it (`tool-lock`); a spec
   * elsewhere in the project (a test fixture, a docs example) is checked as without a lock.
   * Undefined (a lock written before it was kept): every spec of the project.
   */
  covers?: readonly string[];
}

/** Folders a lock may name as covered: far more than a project has. */
const MAX_COVERS = 10_000;

/** Whether the lock holds the spec at `specPath` to it (see `ToolLock.covers`). */
export function lockCovers(lock: ToolLock, root: string, specPath: string): boolean {
  if (!lock.covers) return true;
  const dir = lockKey(root, dirname(specPath)) || ".";
  return lock.covers.some((c) => c === "." || dir === c || dir.startsWith(`${c}/`));
}

/** The lock, none (no file), or why it cannot be used. */
export type LockRead = { ok: true; lock: ToolLock } | { ok: false; problem: string } | undefined;

/** A module's key in the lock: its path from the project root, with `/` on every platform. */
export const lockKey = (root: string, abs: string): string =>
  relative(root, abs).split(sep).join("/");

/** The hash of one file's content (CRLF read as LF, so a Windows checkout hashes the same). */
export const contentHash = (bytes: Buffer): string =>
  createHash("sha256").update(bytes.toString("utf8").replace(/\r\n/g, "\n")).digest("hex");

/** Reads `graphspec.lock.json` at the project root. */
export async function readLock(root: string): Promise<LockRead> {
  const path = join(root, LOCK_FILE);
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return { ok: false, problem: `it cannot be read (${(e as NodeJS.ErrnoException).code})` };
  }
  if (size > MAX_LOCK_BYTES)
    return { ok: false, problem: `it is bigger than ${MAX_LOCK_BYTES} bytes` };
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, "utf8"));
  } catch {
    return { ok: false, problem: "it is not JSON" };
  }
  return parseLock(data);
}

/** The lock in parsed JSON, checked for shape. */
export function parseLock(data: unknown): LockRead {
  if (!isObject(data) || !isObject(data.modules))
    return { ok: false, problem: "it is not a lock graphspec wrote (no `modules`)" };
  if (data.version !== LOCK_VERSION)
    return {
      ok: false,
      problem: `it is of version ${JSON.stringify(data.version)}, and this graphspec reads version ${LOCK_VERSION}`,
    };
  const modules = new Map<string, LockedModule>();
  for (const [key, entry] of Object.entries(data.modules)) {
    if (!isObject(entry) || typeof entry.sha256 !== "string" || !isObject(entry.exports)) continue;
    const exports = new Map<string, ExportFacts>();
    for (const [name, facts] of Object.entries(entry.exports)) {
      const read = readFacts(facts);
      if (read) exports.set(name, read);
    }
    modules.set(key, { sha256: entry.sha256, exports });
  }
  const covers = Array.isArray(data.covers)
    ? data.covers.filter((c): c is string => typeof c === "string").slice(0, MAX_COVERS)
    : undefined;
  return {
    ok: true,
    lock: { modules, mcpServers: parseMcpServers(data.mcp_servers), ...(covers ? { covers } : {}) },
  };
}

/** The lock's `mcp_servers`: entries not of the shape lock writes are left out (so: not recorded). */
function parseMcpServers(data: unknown): Map<string, LockedMcpServer> {
  const servers = new Map<string, LockedMcpServer>();
  if (!isObject(data)) return servers;
  for (const [name, entry] of Object.entries(data)) {
    if (!isObject(entry) || typeof entry.sha256 !== "string" || !isObject(entry.tools)) continue;
    const files = new Map<string, string>();
    for (const [path, hash] of Object.entries(isObject(entry.files) ? entry.files : {}))
      if (typeof hash === "string") files.set(path, hash);
    const tools = new Map<string, LockedMcpTool>();
    for (const [tool, facts] of Object.entries(entry.tools)) {
      if (!isObject(facts) || !isObject(facts.inputSchema)) continue;
      tools.set(tool, {
        inputSchema: facts.inputSchema,
        ...(typeof facts.description === "string"
          ? { description: facts.description.slice(0, MAX_DESCRIPTION) }
          : {}),
      });
    }
    servers.set(name, { sha256: entry.sha256, files, tools });
  }
  return servers;
}

/** Objects with their keys sorted, at every depth: the same lock is written byte for byte the same. */
export function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (!isObject(v)) return v;
  // No prototype: an export may be named `__proto__`.
  const out: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(v).sort()) out[key] = sorted(v[key]);
  return out;
}

/** Folders without those inside another of them (`graphs/sub` goes with `graphs`), sorted. */
function outermost(folders: readonly string[]): string[] {
  const all = [...new Set(folders)].sort();
  if (all.includes(".")) return ["."];
  return all.filter((f) => !all.some((g) => g !== f && f.startsWith(`${g}/`)));
}

/** The lock's text: JSON with sorted keys and two-space indents, which diffs line by line. */
export function lockText(lock: ToolLock): string {
  const modules: Record<string, unknown> = Object.create(null);
  for (const [key, m] of lock.modules)
    modules[key] = { sha256: m.sha256, exports: Object.fromEntries(m.exports) };
  const servers: Record<string, unknown> = Object.create(null);
  for (const [name, s] of lock.mcpServers)
    servers[name] = {
      sha256: s.sha256,
      files: Object.fromEntries(s.files),
      tools: Object.fromEntries(s.tools),
    };
  const mcp = lock.mcpServers.size > 0;
  const body = {
    "//": mcp
      ? `Written by \`graphspec lock\`: the tools' argument schemas, which \`graphspec validate\` checks specs against without running the modules or starting the MCP servers. Run \`${LOCK_COMMAND}\` again when a tool module or an MCP server changes, and commit this file.`
      : `Written by \`graphspec lock\`: the tools' argument schemas, which \`graphspec validate\` checks specs against without running the modules. Run \`${LOCK_COMMAND}\` again when a tool module changes, and commit this file.`,
    version: LOCK_VERSION,
    ...(lock.covers ? { covers: outermost(lock.covers) } : {}),
    modules: sorted(modules),
    // Left out when no spec declares a server: a lock of module tools only stays as it was.
    ...(mcp ? { mcp_servers: sorted(servers) } : {}),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
