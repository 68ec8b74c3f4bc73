/**
 * `graphspec lock [paths...]`: loads every tool module the specs name — each in a process of its
 * own, as `validate --load-modules` does — and writes what they export, tools' argument schemas
 * included, with each module's content hash, to `graphspec.lock.json` at the project root. Then
 * `graphspec validate`, which runs nothing, checks tool arguments against the lock, and reports a
 * module that changed since (`tool-lock`). It also connects to the MCP servers the specs declare
 * (lock-mcp.ts) and records their tools. `--check` compares instead of writing.
 */
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { parseArgs } from "node:util";
import {
  DEFAULT_LOAD_TIMEOUT_MS,
  type ExportFacts,
  isolatedInspector,
  LOCK_FILE,
  type LockedModule,
  lockKey,
  lockText,
  type ModuleRef,
  moduleHash,
  moduleRefs,
  parseLock,
  resolveModuleFile,
  sharedIn,
  type ToolLock,
} from "../../modules/index.js";
import { requirePeers } from "../../peers/load-peer.js";
import { isObject } from "../../spec/data.js";
import { PathProbes } from "../../spec/path-probes.js";
import { durationArg, jsonArg } from "../args.js";
import { ENV_FILE_HELP, ENV_FILE_OPTION, loadEnvFile } from "../env-file.js";
import { expandSpecPaths } from "../files.js";
import { EXIT, type Io, UsageError } from "../io.js";
import { readSpecsAhead } from "../read-ahead.js";
import { collectServers, lockServers, mcpDrift, type WantedServer } from "./lock-mcp.js";

const help = `Usage: graphspec lock [paths|globs|dirs...] [options]

Loads the tool modules the specs name (default: graphs/) and writes what they export — each
tool's argument JSON Schema and description — with each module's content hash to
graphspec.lock.json at the project root. \`graphspec validate\` then checks tool arguments against
it without running any module, and reports a tool module that changed since (rule tool-lock).
It also starts (stdio) or reaches (HTTP) every MCP server the specs declare in mcp_servers and
records the tools each lists, with a hash of its configuration and of its script.
This runs the modules' code and the servers: run it where they are trusted, and commit the file.

Options:
      --check                    write nothing: exit 1 when graphspec.lock.json is not what
                                 this would write
      --load-timeout <duration>  how long one module may take to load, and one MCP server to
                                 start and list its tools (default 10s)
      --load-env <NAME>          pass environment variable NAME to the loading processes;
                                 repeatable (they get only PATH otherwise)
  -c, --context <JSON|@file>     the run context an MCP server's headers or env read
${ENV_FILE_HELP}
  -h, --help                     show this help

Exit: 0 written (or up to date), 1 a module did not load, an MCP server could not be started
or reached (or --check found the lock stale), 2 usage error. Docs: docs/cli.md#graphspec-lock.`;

/** One tool module to lock: where it is, and the first reference that names it (for messages). */
interface Wanted {
  abs: string;
  ref: ModuleRef;
  spec: string;
}

export async function lockCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      check: { type: "boolean", default: false },
      "load-timeout": { type: "string" },
      "load-env": { type: "string", multiple: true },
      context: { type: "string", short: "c" },
      ...ENV_FILE_OPTION,
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    io.out(help);
    return EXIT.ok;
  }
  const env: Record<string, string> = {};
  for (const name of values["load-env"] ?? []) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new UsageError(`--load-env takes a variable name, not "${name}"`);
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const timeout = durationArg("load-timeout", values["load-timeout"]) ?? DEFAULT_LOAD_TIMEOUT_MS;
  const context = jsonArg(io, "context", values.context);
  if (context !== undefined && !isObject(context))
    throw new UsageError("--context takes a JSON object");
  // For MCP servers' env and headers templates; the module-loading processes still get only PATH.
  loadEnvFile(io, values["env-file"]);

  const { files, missing } = await expandSpecPaths(
    positionals.length ? positionals : ["graphs/"],
    io.cwd,
  );
  if (missing.length)
    throw new UsageError(`no spec files match ${missing.map((m) => `"${m}"`).join(", ")}`);

  // Tool modules by project root, then by their key in that root's lock; MCP servers by root, then name.
  const roots = new Map<string, Map<string, Wanted>>();
  const serversOf = new Map<string, Map<string, WantedServer>>();
  // The folders of the specs locked, by root: the lock holds specs there to it (lock-file.ts).
  const coversOf = new Map<string, Set<string>>();
  const probes = new PathProbes();
  const shared = sharedIn(new Map());
  let failed = false;
  let loadFailed = false;
  for await (const doc of readSpecsAhead(files, io.cwd, probes)) {
    const wanted = roots.get(doc.root) ?? new Map<string, Wanted>();
    roots.set(doc.root, wanted);
    const servers = serversOf.get(doc.root) ?? new Map<string, WantedServer>();
    serversOf.set(doc.root, servers);
    const covers = coversOf.get(doc.root) ?? new Set<string>();
    coversOf.set(doc.root, covers);
    covers.add(lockKey(doc.root, dirname(doc.path)) || ".");
    for (const problem of await collectServers(doc, servers, shared)) {
      io.err(problem);
      failed = loadFailed = true;
    }
    for (const ref of moduleRefs(doc.data)) {
      if (ref.kind !== "tool") continue;
      const file = await resolveModuleFile({ specPath: doc.path, root: doc.root, probes }, ref);
      // A reference that does not resolve is validate's to report.
      if (!file.ok) continue;
      const key = lockKey(doc.root, file.abs);
      if (!wanted.has(key)) wanted.set(key, { abs: file.abs, ref, spec: doc.file });
    }
  }

  const inspect = isolatedInspector({ timeout, env });
  for (const [root, wanted] of roots) {
    let rootFailed = false;
    const lockPath = join(root, LOCK_FILE);
    const shown = relative(io.cwd, lockPath) || LOCK_FILE;
    const before = await readFile(lockPath, "utf8").catch(() => undefined);
    const servers = serversOf.get(root) ?? new Map<string, WantedServer>();
    if (!wanted.size && !servers.size && before === undefined) continue;
    const modules = new Map<string, LockedModule>();
    for (const [key, { abs, ref, spec }] of [...wanted].sort(([a], [b]) => a.localeCompare(b))) {
      // Hashed before loading: a lock never pairs a hash with exports of other content.
      const sha256 = await moduleHash(abs, root, shared);
      if (sha256 === undefined) {
        io.err(`${spec}: module \`${ref.module}\` cannot be read`);
        rootFailed = true;
        continue;
      }
      const report = await inspect(abs, root, shared);
      if (!report.ok) {
        const { message, hint } = report.describe(ref.module);
        io.err(`${spec}: ${message}${hint ? ` (${hint})` : ""}`);
        rootFailed = true;
        continue;
      }
      const exports = new Map<string, ExportFacts>();
      for (const name of [...report.exports.names].sort()) {
        const facts = await report.exports.facts?.(name);
        if (facts) exports.set(name, facts);
      }
      modules.set(key, { sha256, exports });
    }
    // Checked before any server starts: one error names what to install.
    if (servers.size) await requirePeers(["mcp"]);
    const mcp = await lockServers(servers, { timeout, context }, io.err);
    if (rootFailed || mcp.failed) {
      failed = loadFailed = true;
      continue;
    }
    const text = lockText({
      modules,
      mcpServers: mcp.servers,
      covers: [...(coversOf.get(root) ?? [])],
    });
    const drift = mcpDrift(lockOnDisk(before), mcp.servers).map((line) => `  ${line}`);
    const tools = [...modules.values()].reduce(
      (n, m) => n + [...m.exports.values()].filter((f) => f.kind === "tool").length,
      0,
    );
    const mcpTools = [...mcp.servers.values()].reduce((n, s) => n + s.tools.size, 0);
    const counted = `${modules.size} module${modules.size === 1 ? "" : "s"}, ${tools} tool${tools === 1 ? "" : "s"}${mcp.servers.size ? `, ${mcp.servers.size} MCP server${mcp.servers.size === 1 ? "" : "s"} with ${mcpTools} tool${mcpTools === 1 ? "" : "s"}` : ""}`;
    if (text === before) {
      io.out(`✔ ${shown} is up to date (${counted})`);
    } else if (values.check) {
      io.err(
        `✖ ${shown} is ${before === undefined ? "missing" : "out of date"}: run \`npx graphspec lock\` and commit it`,
      );
      for (const line of before === undefined ? [] : drift) io.err(line);
      failed = true;
    } else {
      await writeFile(lockPath, text);
      io.out(`✔ wrote ${shown} (${counted})`);
      for (const line of before === undefined ? [] : drift) io.out(line);
    }
  }
  if (failed) {
    if (loadFailed)
      io.err(`${LOCK_FILE} was not written: fix the modules and MCP servers above first`);
    return EXIT.findings;
  }
  return EXIT.ok;
}

/** The lock on disk as parsed, for saying what changed; undefined when there is none or it is unusable. */
function lockOnDisk(text: string | undefined): ToolLock | undefined {
  if (text === undefined) return undefined;
  try {
    const read = parseLock(JSON.parse(text));
    return read?.ok ? read.lock : undefined;
  } catch {
    return undefined;
  }
}
