import { EXIT, type Io, processIo } from "./io.js";
import { type Command, runCommand } from "./run-command.js";
import { VERSION } from "./version.js";

export { allowWideFanOut } from "./wide-fan-out.js";

/** Commands load lazily, so `graphspec validate` never loads what `run` needs (LangChain). */
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  validate: {
    summary: "check spec files (schema + semantic rules) for CI",
    load: async () => (await import("./commands/validate.js")).validateCommand,
  },
  run: {
    summary: "run a graph (offline with --scripts for scripted models)",
    load: async () => (await import("./commands/run.js")).runCommand,
  },
  resume: {
    summary: "answer a paused run, or continue a stopped one",
    load: async () => (await import("./commands/run.js")).resumeCommand,
  },
  threads: {
    summary: "list, show and delete threads",
    load: async () => (await import("./commands/threads.js")).threadsCommand,
  },
  test: {
    summary: "run *.test.yaml fixtures offline (scripted models), with a diff on failure",
    load: async () => (await import("./commands/test.js")).testCommand,
  },
  serve: {
    summary: "serve graphs over the LangGraph Platform API (the official SDK's Client)",
    load: async () => (await import("./commands/serve.js")).serveCommand,
  },
  dev: {
    summary: "serve graphs on 127.0.0.1 for development (no keys needed)",
    load: async () => (await import("./commands/serve.js")).devCommand,
  },
  graphs: {
    summary: "list the project's graphs: names, files, schemas, validate status (--json)",
    load: async () => (await import("./commands/graphs.js")).graphsCommand,
  },
  draw: {
    summary: "draw a graph: Mermaid text, SVG or PNG",
    load: async () => (await import("./commands/draw.js")).drawCommand,
  },
  types: {
    summary: "write TypeScript types and typed run helpers for graphs",
    load: async () => (await import("./commands/types.js")).typesCommand,
  },
  export: {
    summary: "write a LangGraph Platform project (langgraph.json) that serves the graphs",
    load: async () => (await import("./commands/export.js")).exportCommand,
  },
  init: {
    summary: "make a new project: a graph, a tool, a fixture, a README, CI",
    load: async () => (await import("./commands/init.js")).initCommand,
  },
  migrate: {
    summary: "rewrite specs of an older version to the current one (--check for CI)",
    load: async () => (await import("./commands/migrate.js")).migrateCommand,
  },
  lock: {
    summary: "record the tool modules' argument schemas in graphspec.lock.json",
    load: async () => (await import("./commands/lock.js")).lockCommand,
  },
  lsp: {
    summary: "a language server for editors (diagnostics as you type), over stdio",
    load: async () => (await import("./commands/lsp.js")).lspCommand,
  },
  schema: {
    summary: "print the spec JSON Schema",
    load: async () => (await import("./commands/schema.js")).schemaCommand,
  },
};

const HELP = `graphspec ${VERSION}: LangGraph agents from YAML or JSON specs

Usage: graphspec <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join("\n")}

Run \`graphspec <command> --help\` for a command's options.`;

/** Runs the CLI; returns the exit code. Never throws: errors become messages and exit code 2. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "-h" || name === "--help" || name === "help") {
    io.out(HELP);
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === "-v" || name === "--version") {
    io.out(VERSION);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`graphspec: unknown command "${name}"\n\n${HELP}`);
    return EXIT.usage;
  }
  return runCommand(name, command.load, rest, io);
}
