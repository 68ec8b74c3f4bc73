/**
 * `graphspec dev [dir]`: serves the graphs of a directory and reloads them in this process when
 * their files change. Prints one line with the URL when ready; then a line per reload, and a
 * refused change's diagnostics as `graphspec validate` prints them.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { ReloadEvent } from "../../dev/reload-event.js";
import type { Diagnostic } from "../../diagnostics/diagnostic.js";
import { jsonArg } from "../args.js";
import { formatPretty } from "../format/pretty.js";
import { EXIT, type Io, UsageError } from "../io.js";

export const devHelp = `Usage: graphspec dev [dir] [options]

Serves the graphs in dir (default graphs/) and reloads a graph in this process when its spec or a
file it references (modules, subgraph specs) changes. Runs in flight finish on the version they
started with; new runs get the new one. A change with errors is refused: its diagnostics are printed
and the last good version keeps serving.

Options:
      --port <n>                  the port to listen on (default 2024; 0 for any free port)
      --host <address>            the address to listen on (default 127.0.0.1)
      --checkpointer <memory|sqlite|postgres>
                                  where checkpoints are kept (default sqlite: .graphspec/state.db)
      --scripts <JSON|@file>      answers for scripted:NAME models, by NAME
  -h, --help                      show this help

Prints one line with the URL it serves when ready. Stops on Ctrl-C or SIGTERM.`;

const CHOICES = ["memory", "sqlite", "postgres"];

export async function devCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      checkpointer: { type: "string" },
      scripts: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    io.out(devHelp);
    return EXIT.ok;
  }
  if (positionals.length > 1) throw new UsageError("give one graphs directory");
  const port = Number(values.port ?? 2024);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be a port number (0 to 65535), not "${values.port}"`);
  const host = values.host ?? "127.0.0.1";
  const checkpointer = values.checkpointer ?? process.env.GRAPHSPEC_CHECKPOINTER ?? "sqlite";
  if (!CHOICES.includes(checkpointer))
    throw new UsageError(
      `--checkpointer must be memory, sqlite or postgres, not "${checkpointer}"`,
    );
  const scripts = jsonArg(io, "scripts", values.scripts) as Record<string, never> | undefined;
  const dir = resolve(io.cwd, positionals[0] ?? "graphs");

  const shown = (path: string) => relative(io.cwd, path) || path;
  const onReload = (event: ReloadEvent) => {
    if (event.type === "reloaded" && event.changed.length)
      io.err(
        `reloaded ${shown(event.path)} (version ${event.version}, ${Math.round(event.ms)} ms)`,
      );
    else if (event.type === "rejected") {
      const kept =
        event.kept === undefined
          ? "it is not served until it is fixed"
          : `version ${event.kept} keeps serving`;
      io.err(
        event.diagnostics.length
          ? pretty(event.diagnostics, io)
          : `${shown(event.path)}: ${event.message}`,
      );
      io.err(`refused ${shown(event.path)}: ${kept}`);
    }
  };

  // Loaded here, not at the top: `graphspec validate` must not load LangGraph.
  const { createDevExecutor } = await import("../../dev/dev-executor.js");
  const { placeholderServer } = await import("../../dev/start-server.js");
  const dev = createDevExecutor({
    dir,
    checkpointer: checkpointer as "memory" | "sqlite" | "postgres",
    sqlitePath: resolve(io.cwd, ".graphspec/state.db"),
    ...(scripts ? { scripts } : {}),
    onReload,
  });
  await dev.ready;
  const server = await placeholderServer(dev.executor, { port, host });
  io.out(`graphspec dev: serving ${shown(dir)} at ${server.url}`);

  await new Promise<void>((stop) => {
    const done = () => stop();
    process.once("SIGTERM", done);
    const off = io.onInterrupt?.(done);
    if (!off) process.once("SIGINT", done);
  });
  await server.close();
  await dev.close();
  return EXIT.ok;
}

/** Diagnostics as `graphspec validate` prints them (paths from the working directory), with their source lines. */
function pretty(found: readonly Diagnostic[], io: Io): string {
  const sources = new Map<string, string>();
  const diagnostics = found.map((d) =>
    isAbsolute(d.file) ? { ...d, file: relative(io.cwd, d.file) || d.file } : d,
  );
  for (const d of diagnostics) {
    if (sources.has(d.file)) continue;
    try {
      sources.set(d.file, readFileSync(resolve(io.cwd, d.file), "utf8"));
    } catch {
      // A file that cannot be read shows its diagnostics without the source line.
    }
  }
  return formatPretty(diagnostics, sources, io.isTty);
}
