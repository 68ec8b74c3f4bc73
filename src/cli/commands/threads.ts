/** `graphspec threads list | show | delete`: the threads in the checkpointer, and removing them. */
import { relative } from "node:path";
import { parseArgs } from "node:util";
import type { Executor } from "../../run/executor-api.js";
import { threadArg } from "../args.js";
import { ENV_FILE_OPTION, loadEnvFile } from "../env-file.js";
import { withExecutor } from "../executor.js";
import { EXIT, type Io, UsageError } from "../io.js";

export const threadsHelp = `Usage: graphspec threads <list|show|delete> [options]

  list                     every thread: id, graph, last update
  show <thread>            where a thread stands: status, pending interrupts, next nodes, output,
                           the context stored with it
  show <thread> --history  and every checkpoint before: step, time, the nodes that ran next
  delete <thread>          delete a thread's checkpoints (exit 1 when there is no such thread)
  delete --prefix <p>      delete every thread whose id starts with p (data deletion requests)

Options:
      --checkpointer <memory|sqlite|postgres>  default sqlite (.graphspec/state.db);
                                      postgres reads DATABASE_URL
      --history                       with show: the thread's checkpoints, newest first
      --env-file <path>               read variables from this file instead of the project's .env
      --json                          print JSON
  -h, --help                          show this help`;

export async function threadsCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      prefix: { type: "string" },
      checkpointer: { type: "string" },
      history: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      ...ENV_FILE_OPTION,
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [action, id, ...extra] = positionals;
  if (values.help || !action) {
    io.out(threadsHelp);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(" ")}`);
  if (!["list", "show", "delete"].includes(action)) {
    throw new UsageError(`unknown action "${action}": list, show or delete`);
  }
  if (values.history && action !== "show") throw new UsageError("--history goes with `show`");
  threadArg(`threads ${action}`, id);
  // Where the threads are kept may be in the project's .env (GRAPHSPEC_CHECKPOINTER, DATABASE_URL).
  const { secrets } = loadEnvFile(io, values["env-file"]);
  return withExecutor(io, values.checkpointer, secrets.length ? { secrets } : {}, async (exec) => {
    if (action === "list") return list(io, exec, values.json);
    if (action === "show") {
      if (!id) throw new UsageError("show needs a thread id");
      return show(io, exec, id, values);
    }
    if (values.prefix !== undefined) {
      if (id) throw new UsageError("give a thread id or --prefix, not both");
      if (!values.prefix) throw new UsageError("--prefix must not be empty");
      const deleted = await exec.deleteThreads(values.prefix);
      io.out(
        values.json
          ? JSON.stringify({ deleted })
          : `deleted ${deleted.length} thread${deleted.length === 1 ? "" : "s"}`,
      );
      return EXIT.ok;
    }
    if (!id) throw new UsageError("delete needs a thread id, or --prefix");
    if (!(await exec.deleteThread(id))) {
      if (values.json) io.out(JSON.stringify({ deleted: [] }));
      io.err(`graphspec threads: there is no thread \`${id}\`: nothing was deleted`);
      return EXIT.findings;
    }
    io.out(values.json ? JSON.stringify({ deleted: [id] }) : `deleted ${id}`);
    return EXIT.ok;
  });
}

const shownPath = (io: Io, path: string | undefined) => (path ? relative(io.cwd, path) : "?");

async function list(io: Io, exec: Executor, json: boolean): Promise<number> {
  const threads = await exec.threads();
  if (json) {
    io.out(
      JSON.stringify(threads.map((t) => ({ ...t, graph: t.graph && shownPath(io, t.graph) }))),
    );
  } else if (!threads.length) io.out("no threads");
  else for (const t of threads) io.out(`${t.threadId}  ${shownPath(io, t.graph)}  ${t.updatedAt}`);
  return EXIT.ok;
}

async function show(
  io: Io,
  exec: Executor,
  id: string,
  options: { history: boolean; json: boolean },
): Promise<number> {
  const { toPlain } = await import("../../run/serialize.js");
  const result = await exec.inspect(id);
  if (!result) {
    io.err(`graphspec threads: there is no thread \`${id}\``);
    return EXIT.findings;
  }
  // Refused before reading: the thread names a spec outside the project, say so and stop.
  if (result.error?.code === "graph-outside-project") {
    if (options.json) io.out(JSON.stringify(result));
    io.err(`graphspec threads: ${result.error.message}\n  hint: ${result.error.hint}`);
    return EXIT.findings;
  }
  const context = (await exec.contextOf(id)) ?? {};
  const history = options.history ? ((await exec.history(id)) ?? []) : undefined;
  const plain = {
    ...result,
    output: toPlain(result.output),
    interrupts: toPlain(result.interrupts),
    context,
    ...(history ? { history: history.map((h) => ({ ...h, values: toPlain(h.values) })) } : {}),
  };
  if (options.json) {
    io.out(JSON.stringify(plain));
    return EXIT.ok;
  }
  const next = result.next.length ? `, next: ${result.next.join(", ")}` : "";
  io.out(`${id}: ${result.status}${next}`);
  if (result.error) {
    const e = result.error;
    io.out(`  ${e.node ? `node \`${e.node}\` ` : ""}failed [${e.code}]: ${e.message}`);
    if (e.hint) io.out(`  hint: ${e.hint}`);
  }
  for (const i of result.interrupts)
    io.out(`  ${i.node} asks (id ${i.id}): ${JSON.stringify(toPlain(i.value))}`);
  if (Object.keys(context).length) io.out(`context: ${JSON.stringify(context)}`);
  io.out(`output: ${JSON.stringify(plain.output, null, 2)}`);
  if (history) {
    io.out("history (newest first):");
    for (const h of history) {
      const then = h.next.length ? `→ ${h.next.join(", ")}` : "→ (end)";
      io.out(
        `  step ${String(h.step).padStart(2)}  ${h.createdAt ?? ""}  ${h.source.padEnd(6)} ${then}`,
      );
    }
  }
  return EXIT.ok;
}
