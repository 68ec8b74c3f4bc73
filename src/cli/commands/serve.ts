/**
 * `graphspec serve` and `graphspec dev`: the HTTP API (docs/server.md) over the graphs of a
 * folder. `serve` refuses to start without authentication unless told `--no-auth`; `dev` listens
 * on 127.0.0.1, may run without keys, and reloads a graph in the process when its files change
 * (docs/dev.md). SIGTERM / SIGINT stop taking requests and let runs in
 * flight finish (cancelled past the grace period, at a checkpoint they can be resumed from).
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { requirePeers } from "../../peers/load-peer.js";
import type { Authenticator } from "../../server/auth.js";
import { bytesArg, durationArg, sizeLimitArgs } from "../args.js";
import { ENV_FILE_HELP, ENV_FILE_OPTION, loadEnvFile } from "../env-file.js";
import { EXIT, type Io, UsageError } from "../io.js";
import { recordingArg } from "../recording-arg.js";
import { scriptsArg } from "../scripts-arg.js";
import { STUDIO_URL, studioLink } from "../studio-link.js";
import { VERSION } from "../version.js";

/**
 * 4 MiB: a state at the bound takes on the order of 100 ms to store and read back on a busy
 * machine, and the server's other tenants wait that long (cpu-turns.ts cannot cut it short).
 */
const SERVER_MAX_STATE_BYTES = 4 * 1024 * 1024;

const help = (name: string) => `Usage: graphspec ${name} [dir] [options]

Serves the graphs in dir (default graphs/) over the LangGraph Platform API that
@langchain/langgraph-sdk's Client uses (docs/server.md).${
  name === "dev"
    ? `
A graph is reloaded in this process when its spec or a file it references (modules, subgraph
specs, its catalog) changes: runs in flight finish on the version they started with, new runs get
the new one; a change with errors is refused, its diagnostics printed, and the last good version
keeps serving.`
    : ""
}
Prints one line, the URL it serves, when ready${name === "dev" ? "; then a second, the link that opens\nLangGraph Studio on it" : ""}.

Options:
      --port <n>                  default 2024 (0: any free port)
      --host <address>            default ${name === "dev" ? "127.0.0.1" : "0.0.0.0"}
      --api-keys <file>           JSON object from API key to tenant id (sent as x-api-key)
      --auth <path[:export]>      a LangGraph Auth handler module (as langgraph.json's auth.path)
${name === "serve" ? "      --no-auth                   serve without authentication (refused otherwise)\n" : ""}      --checkpointer <memory|sqlite|postgres>  postgres: DATABASE_URL; default ${name === "serve" ? "postgres when DATABASE_URL is set, else " : ""}sqlite (.graphspec/state.db)
      --max-body-bytes <size>     refuse larger request bodies (default 4MiB)
      --max-run-event-bytes <size>
                                  bytes of one run's events kept for joinStream (default 16MiB)
      --max-event-bytes <size>    bytes of all runs' events kept (default 64MiB)
      --max-input-bytes <size>    refuse a larger run input or context (default 1MiB)
      --max-resume-bytes <size>   refuse a larger resume value (default 1MiB)
      --max-state-bytes <size>    fail a step whose state would be larger (default 4MiB)
      --max-thread-bytes <size>   prune a thread's oldest checkpoints past this (default 64MiB; SQLite)
      --max-queued-per-tenant <n> background runs one tenant may have queued; past it,
                                  runs.create is a 429 with retry-after (default 100)
      --max-running-per-tenant <n>
                                  runs one tenant may have running, background and streamed;
                                  more background runs wait, streamed ones are a 429 (default 8)
      --max-assistants-per-tenant <n>
                                  saved assistants one tenant may keep; past it,
                                  assistants.create is a 403 (default 100)
      --max-assistant-bytes <size>
                                  one saved assistant's config, context, metadata, name and
                                  description, as JSON; past it a 413 (default 64KiB)
      --run-deadline <30s|5m|2h|none>
                                  how long a run may take; a run may ask for less with
                                  config.configurable.graphspec_deadline (default 1h)
      --run-max-tokens <n>        tokens one run's model calls may use; a run may ask for fewer
                                  with config.configurable.graphspec_max_tokens (default none)
      --allow-origin <origin>     a web page origin (http://localhost:5173) that may call the API,
                                  with CORS; repeat for more (default: only the server's own${name === "dev" ? "\n                                  and LangGraph Studio's" : ""})
${
  name === "dev"
    ? `      --studio-url <origin>       where LangGraph Studio is, for its link and its CORS answers
                                  (default ${STUDIO_URL}; LangSmith's EU region:
                                  https://eu.smith.langchain.com; none: no link, and Studio's
                                  pages may not call it)
`
    : ""
}      --allow-host <name>         a Host name to answer besides loopback names, IP addresses and
                                  --host (DNS rebinding); repeat for more. On 0.0.0.0 or ::, any
                                  name is answered unless this is given
      --grace <ms>                on SIGTERM, how long runs in flight may finish (default 10000)
      --heartbeat <ms>            with records in a database, how often this replica says it is
                                  alive (default 2000); one silent for 5 beats is taken for dead
                                  and its runs are released
${name === "dev" ? "      --scripts <JSON|@file>      model answers, as for `graphspec run`: no model reaches its provider\n      --replay <file>             answer the models from a recording (graphspec run --record), offline;\n                                  a run may use its calls again\n" : ""}${ENV_FILE_HELP}
  -h, --help                      show this help

Environment:
  GRAPHSPEC_RECORDS_KEY           32 bytes (64 hex digits or base64) that seal background runs'
                                  contexts in the records; give every replica the same one.
                                  Without it, a background run with a context runs on the
                                  replica that accepted it (docs/security.md)`;

const OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  "api-keys": { type: "string" },
  auth: { type: "string" },
  "no-auth": { type: "boolean", default: false },
  checkpointer: { type: "string" },
  "max-body-bytes": { type: "string" },
  "max-run-event-bytes": { type: "string" },
  "max-event-bytes": { type: "string" },
  "max-input-bytes": { type: "string" },
  "max-resume-bytes": { type: "string" },
  "max-state-bytes": { type: "string" },
  "max-thread-bytes": { type: "string" },
  "max-queued-per-tenant": { type: "string" },
  "max-running-per-tenant": { type: "string" },
  "max-assistants-per-tenant": { type: "string" },
  "max-assistant-bytes": { type: "string" },
  "run-deadline": { type: "string" },
  "run-max-tokens": { type: "string" },
  "allow-origin": { type: "string", multiple: true },
  "allow-host": { type: "string", multiple: true },
  "studio-url": { type: "string" },
  grace: { type: "string" },
  heartbeat: { type: "string" },
  scripts: { type: "string" },
  replay: { type: "string" },
  ...ENV_FILE_OPTION,
  help: { type: "boolean", short: "h", default: false },
} as const;

async function serveWith(name: "serve" | "dev", argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
  });
  if (values.help) {
    io.out(help(name));
    return EXIT.ok;
  }
  // Before anything reads the environment (DATABASE_URL, GRAPHSPEC_*): the project's .env fills in what it lacks.
  const { secrets } = loadEnvFile(io, values["env-file"]);
  const port = values.port === undefined ? 2024 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be a port number, not "${values.port}"`);
  if (values["api-keys"] && values.auth)
    throw new UsageError("give --api-keys or --auth, not both");
  const host = values.host ?? (name === "dev" ? "127.0.0.1" : "0.0.0.0");
  const authless = !values["api-keys"] && !values.auth;
  if (authless && name === "serve" && !values["no-auth"])
    throw new UsageError(
      "serve needs --api-keys FILE or --auth PATH (or --no-auth, to serve without authentication)",
    );
  if (authless && name === "dev" && host !== "127.0.0.1" && host !== "localhost" && host !== "::1")
    throw new UsageError(
      `dev without keys listens on 127.0.0.1 only; give --api-keys or --auth to listen on ${host}`,
    );
  const dir = resolve(io.cwd, positionals[0] ?? "graphs");
  // A server given a database serves from it: replicas share threads only there.
  const choice =
    values.checkpointer ??
    process.env.GRAPHSPEC_CHECKPOINTER ??
    (name === "serve" && process.env.DATABASE_URL ? "postgres" : "sqlite");
  if (!["memory", "sqlite", "postgres"].includes(choice))
    throw new UsageError(`--checkpointer must be memory, sqlite or postgres, not "${choice}"`);
  const scripts = await scriptsArg(io, values.scripts);
  if (scripts && name === "serve")
    throw new UsageError("--scripts is for `graphspec dev`; serve runs the spec's own models");
  if (values.replay !== undefined && name === "serve")
    throw new UsageError("--replay is for `graphspec dev`; serve runs the spec's own models");
  // dev's runs are tried again and again: a replayed call may answer more than once.
  const replayed = recordingArg(io, undefined, values.replay, secrets, { reuse: true });
  // Every option checked before anything starts: a bad one leaves no watcher or server behind.
  const maxBodyBytes = bytesArg("max-body-bytes", values["max-body-bytes"]);
  const maxRunEventBytes = bytesArg("max-run-event-bytes", values["max-run-event-bytes"]);
  const maxEventBytes = bytesArg("max-event-bytes", values["max-event-bytes"]);
  // The executor's size limits, as `graphspec run` takes them.
  // A server's default state bound is a quarter of `run`'s: storing or reading a state is a chunk
  // no other tenant's run can interrupt (docs/security.md, "Bounds").
  const sizes: Record<string, number> = {
    maxStateBytes: SERVER_MAX_STATE_BYTES,
    ...sizeLimitArgs(values),
  };
  const maxQueuedPerTenant = countArg("max-queued-per-tenant", values["max-queued-per-tenant"]);
  const maxRunningPerTenant = countArg("max-running-per-tenant", values["max-running-per-tenant"]);
  const maxAssistantsPerTenant = countArg(
    "max-assistants-per-tenant",
    values["max-assistants-per-tenant"],
    "assistants",
  );
  const maxAssistantBytes = bytesArg("max-assistant-bytes", values["max-assistant-bytes"]);
  const runDeadlineMs =
    values["run-deadline"]?.trim() === "none"
      ? null
      : durationArg("run-deadline", values["run-deadline"]);
  // Whole milliseconds, as startServer takes them (`1.5ms` is 2).
  const runDeadline = runDeadlineMs ? Math.ceil(runDeadlineMs) : runDeadlineMs;
  const runMaxTokens = countArg("run-max-tokens", values["run-max-tokens"], "tokens");
  const grace = values.grace === undefined ? 10_000 : Number(values.grace);
  if (!Number.isInteger(grace) || grace < 0)
    throw new UsageError(`--grace must be a number of milliseconds, not "${values.grace}"`);
  const heartbeat = values.heartbeat === undefined ? undefined : Number(values.heartbeat);
  if (heartbeat !== undefined && (!Number.isInteger(heartbeat) || heartbeat < 10))
    throw new UsageError(
      `--heartbeat must be a number of milliseconds (10 or more), not "${values.heartbeat}"`,
    );
  // Seals background runs' contexts in the records; checked here so a bad key is a usage error.
  const recordsKey = process.env.GRAPHSPEC_RECORDS_KEY || undefined;
  if (recordsKey !== undefined) {
    const { recordsKey: parseKey } = await import("../../server/sealed-context.js");
    try {
      parseKey(recordsKey);
    } catch (e) {
      throw new UsageError(`GRAPHSPEC_RECORDS_KEY: ${(e as Error).message}`);
    }
  }
  // Everything this command will load, checked at once: one error names every missing package.
  const checkpointerPeer = choice === "memory" ? [] : [choice as "sqlite" | "postgres"];
  await requirePeers([
    "server",
    ...(name === "dev" ? (["watch"] as const) : []),
    ...checkpointerPeer,
  ]);
  const { startServer } = await import("../../server/serve.js");
  const { folderCatalog } = await import("../../server/graph-catalog.js");
  const { allowedOrigins } = await import("../../server/request-origin.js");
  if (values["studio-url"] !== undefined && name === "serve")
    throw new UsageError("--studio-url is for `graphspec dev`; serve takes --allow-origin");
  const checkedOrigins = (option: string, list: string[]) => {
    try {
      return allowedOrigins(list);
    } catch (e) {
      throw new UsageError(`--${option}: ${(e as Error).message}`);
    }
  };
  // dev: LangGraph Studio may call it, as the official dev server lets it (docs/dev.md).
  const studioUrl = values["studio-url"]?.trim() ?? STUDIO_URL;
  const studio =
    name === "dev" && studioUrl !== "none"
      ? checkedOrigins("studio-url", [studioUrl])[0]
      : undefined;
  const allowOrigins = [
    ...(studio ? [studio] : []),
    ...checkedOrigins("allow-origin", values["allow-origin"] ?? []),
  ];
  const allowHosts = values["allow-host"] ?? [];
  for (const h of allowHosts)
    if (!/^[a-z0-9.-]+$/i.test(h) && !/^\[?[0-9a-f:.]+\]?$/i.test(h))
      throw new UsageError(`--allow-host must be a host name, as api.example.com, not "${h}"`);
  const { apiKeyAuth, handlerAuth } = await import("../../server/auth.js");
  const auth = await loadAuth(values["api-keys"], values.auth, io.cwd, apiKeyAuth, handlerAuth);
  const sqlitePath = resolve(io.cwd, ".graphspec/state.db");
  // dev: a run may choose a fixture test's scripts or a recording for its models (docs/dev.md);
  // serve offers none, so no caller of a production server swaps its models.
  const standIns =
    name === "dev"
      ? (await import("../../dev/stand-in-catalog.js")).standInCatalog(dir, {
          secrets,
          withoutOne: scripts ? "scripts" : replayed ? "recording" : "provider",
        })
      : undefined;
  const executorOptions = {
    dir,
    checkpointer: choice as "memory" | "sqlite" | "postgres",
    sqlitePath,
    ...sizes,
    ...(scripts ? { scripts } : {}),
    ...(replayed ? { recording: replayed.recording } : {}),
    ...(secrets.length ? { secrets } : {}),
    ...(standIns ? { standIns } : {}),
  };
  // dev: graphs reloaded in this process when their files change; serve: loaded once. The page
  // hears of each reload too (graphChanges below).
  const reloadListeners = new Set<() => void>();
  const dev =
    name === "dev"
      ? await import("../../dev/dev-executor.js").then(async ({ createDevExecutor }) => {
          const { reloadReporter } = await import("./reload-report.js");
          const report = reloadReporter(io);
          const d = createDevExecutor({
            ...executorOptions,
            onReload: (event) => {
              report(event);
              for (const listener of reloadListeners) listener();
            },
          });
          await d.ready;
          return d;
        })
      : undefined;
  const exec =
    dev?.executor ?? (await import("../../run/executor.js")).createExecutor(executorOptions);
  // Thread and run records beside the checkpoints: replicas on one PostgreSQL share them.
  const records =
    choice === "postgres" && process.env.DATABASE_URL
      ? { postgres: process.env.DATABASE_URL }
      : choice === "sqlite"
        ? { sqlite: sqlitePath }
        : ("memory" as const);
  const server = await startServer({
    exec,
    // dev: an assistant is the version that serves, not a refused change sitting in the file.
    graphs: folderCatalog(dir, dev ? { served: dev.servedSpec, status: dev.statusOf } : {}),
    auth,
    host,
    port,
    version: VERSION,
    records,
    page: name === "dev",
    graphChanges: (listener) => {
      reloadListeners.add(listener);
      return () => reloadListeners.delete(listener);
    },
    ...(standIns ? { standIns } : {}),
    ...(recordsKey ? { recordsKey } : {}),
    ...(allowOrigins.length ? { allowOrigins } : {}),
    ...(allowHosts.length ? { allowHosts } : {}),
    ...(heartbeat ? { heartbeatMs: heartbeat } : {}),
    ...(maxBodyBytes ? { maxBodyBytes } : {}),
    ...(maxRunEventBytes ? { maxRunEventBytes } : {}),
    ...(maxEventBytes ? { maxEventBytes } : {}),
    ...(maxQueuedPerTenant ? { maxQueuedPerTenant } : {}),
    ...(maxRunningPerTenant ? { maxRunningPerTenant } : {}),
    ...(maxAssistantsPerTenant ? { maxAssistantsPerTenant } : {}),
    ...(maxAssistantBytes ? { maxAssistantBytes } : {}),
    ...(runDeadline !== undefined ? { runDeadlineMs: runDeadline } : {}),
    ...(runMaxTokens ? { runMaxTokens } : {}),
  });
  io.out(server.url);
  if (studio) io.out(`LangGraph Studio: ${studioLink(server.url, studio)}`);
  await new Promise<void>((done) => {
    const stop = () => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      server
        .close(grace)
        .then(() => dev?.close())
        .then(done, done);
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
  // A node that ignores its cancellation (a loop, a timer) would keep the process up after its
  // run was handed back: once the server is closed, the process goes, whatever still waits.
  setTimeout(() => process.exit(), 1000).unref();
  return EXIT.ok;
}

/** A count of `unit`, 1 or more (undefined when the option is not given). */
function countArg(name: string, value: string | undefined, unit = "runs"): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`--${name} must be a whole number of ${unit}, 1 or more, not "${value}"`);
  return n;
}

/**
 * The key file or Auth module the user named: anything wrong with it (not found, not JSON, a
 * short key, a module that throws or exports no handler) is their input, so a usage error.
 */
async function loadAuth(
  keysFile: string | undefined,
  authSpec: string | undefined,
  cwd: string,
  apiKeyAuth: (file: string) => Promise<Authenticator>,
  handlerAuth: (spec: string, cwd: string) => Promise<Authenticator>,
): Promise<Authenticator | undefined> {
  try {
    if (keysFile) return await apiKeyAuth(resolve(cwd, keysFile));
    if (authSpec) return await handlerAuth(authSpec, cwd);
    return undefined;
  } catch (e) {
    const message = (e as Error)?.message ?? String(e);
    if (message.startsWith("--")) throw new UsageError(message);
    throw new UsageError(
      keysFile
        ? `--api-keys ${keysFile}: ${message}`
        : `--auth ${authSpec}: cannot load the module: ${message}\n  hint: give path/to/auth.ts:exportName, as langgraph.json's auth.path`,
    );
  }
}

export const serveCommand = (argv: string[], io: Io) => serveWith("serve", argv, io);
export const devCommand = (argv: string[], io: Io) => serveWith("dev", argv, io);
