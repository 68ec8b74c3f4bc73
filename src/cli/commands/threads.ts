/** `graphspec threads list | show | delete`: the threads in the checkpointer, and removing them. */
import { relative } from "node:path";
import { parseArgs } from "node:util";
import { cliExecutor } from "../executor.js";
import { EXIT, type Io, UsageError } from "../io.js";

export const threadsHelp = `Usage: graphspec threads <list|show|delete> [options]

  list                     every thread: id, graph, last update
  show <thread>            where a thread stands: status, pending interrupts, next nodes, output
  delete <thread>          delete a thread's checkpoints
  delete --prefix <p>      delete every thread whose id starts with p (data deletion requests)

Options:
      --checkpointer <memory|sqlite>  default sqlite (.graphspec/state.db)
      --json                          print JSON
  -h, --help                          show this help`;

export async function threadsCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      prefix: { type: "string" },
      checkpointer: { type: "string", default: "sqlite" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [action, id, ...extra] = positionals;
  if (values.help || !action) {
    io.out(threadsHelp);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  if (extra.length) throw new UsageError(`unexpected arguments: ${extra.join(" ")}`);
  const exec = await cliExecutor(io, values.checkpointer);
  const { toPlain } = await import("../../run/serialize.js");
  const shown = (path: string | undefined) => (path ? relative(io.cwd, path) : "?");
  switch (action) {
    case "list": {
      const threads = await exec.threads();
      if (values.json)
        io.out(JSON.stringify(threads.map((t) => ({ ...t, graph: t.graph && shown(t.graph) }))));
      else if (!threads.length) io.out("no threads");
      else for (const t of threads) io.out(`${t.threadId}  ${shown(t.graph)}  ${t.updatedAt}`);
      return EXIT.ok;
    }
    case "show": {
      if (!id) throw new UsageError("show needs a thread id");
      const result = await exec.inspect(id);
      if (!result) {
        io.err(`graphspec threads: there is no thread \`${id}\``);
        return EXIT.findings;
      }
      const plain = {
        ...result,
        output: toPlain(result.output),
        interrupts: toPlain(result.interrupts),
      };
      if (values.json) io.out(JSON.stringify(plain));
      else {
        io.out(
          `${id}: ${result.status}${result.next.length ? `, next: ${result.next.join(", ")}` : ""}`,
        );
        for (const i of result.interrupts)
          io.out(`  ${i.node} asks (id ${i.id}): ${JSON.stringify(toPlain(i.value))}`);
        io.out(`output: ${JSON.stringify(plain.output, null, 2)}`);
      }
      return EXIT.ok;
    }
    case "delete": {
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
      await exec.deleteThread(id);
      io.out(values.json ? JSON.stringify({ deleted: [id] }) : `deleted ${id}`);
      return EXIT.ok;
    }
    default:
      throw new UsageError(`unknown action "${action}": list, show or delete`);
  }
}
