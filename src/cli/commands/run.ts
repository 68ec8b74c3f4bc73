/**
 * `graphspec run` and `graphspec resume`: one run through the executor, its RunResult printed —
 * a readable summary, or with `--json` exactly one JSON object on stdout.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { RunResult } from "../../run/result.js";
import { cliExecutor } from "../executor.js";
import { EXIT, type Io, UsageError } from "../io.js";

export const runHelp = `Usage: graphspec run <spec|name> [options]

Runs a graph: a spec file, or a name found in graphs/ (graphs/NAME.yaml).

Options:
  -i, --input <JSON|@file>        the run's input (default {})
  -t, --thread <id>               the thread to run on (default: a new one)
  -c, --context <JSON|@file>      the run's context
      --checkpointer <memory|sqlite>  where checkpoints are kept (default sqlite: .graphspec/state.db)
      --scripts <JSON|@file>      answers for scripted:NAME models, by NAME (offline runs and tests)
      --require-durable           fail, rather than warn, when a graph that can pause would keep
                                  its checkpoints in memory only
      --progress                  show nodes, tool calls and tokens as they happen, on stderr
                                  (the default on a terminal)
      --json                      print the RunResult as one JSON object
  -h, --help                      show this help

Exit: 0 completed or paused, 1 failed (or the spec has errors), 2 usage error.`;

export const resumeHelp = `Usage: graphspec resume [spec|name] --thread <id> [options]

Answers a paused run with --value, or continues a stopped one from its last checkpoint.
The spec may be left out: the thread remembers the graph it ran.

Options:
  -t, --thread <id>               the thread (required)
      --value <JSON|@file>        the answer to the pending interrupt (an id map when several are pending)
  -c, --context <JSON|@file>      the run's context (it is not stored with the thread)
      --checkpointer <memory|sqlite>  default sqlite
      --scripts <JSON|@file>      answers for scripted:NAME models
      --json                      print the RunResult as one JSON object
  -h, --help                      show this help`;

const OPTIONS = {
  input: { type: "string", short: "i" },
  thread: { type: "string", short: "t" },
  context: { type: "string", short: "c" },
  value: { type: "string" },
  checkpointer: { type: "string", default: "sqlite" },
  scripts: { type: "string" },
  "require-durable": { type: "boolean", default: false },
  progress: { type: "boolean", default: false },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** A JSON value given inline or as `@file`. */
function jsonArg(io: Io, flag: string, text: string | undefined): unknown {
  if (text === undefined) return undefined;
  let source = text;
  if (text.startsWith("@")) {
    try {
      source = readFileSync(resolve(io.cwd, text.slice(1)), "utf8");
    } catch (e) {
      throw new UsageError(`--${flag}: cannot read ${text.slice(1)}: ${(e as Error).message}`);
    }
  }
  try {
    return JSON.parse(source);
  } catch (e) {
    throw new UsageError(`--${flag} is not valid JSON: ${(e as Error).message}`);
  }
}

const show = (v: unknown) => JSON.stringify(v, null, 2);

function printResult(io: Io, graph: string, result: RunResult): void {
  for (const w of result.warnings) io.err(`warning: ${w}`);
  if (result.status === "failed" && result.error) {
    const e = result.error;
    io.out(`✖ failed${e.node ? ` in node \`${e.node}\`` : ""} [${e.code}]: ${e.message}`);
    if (e.hint) io.out(`  hint: ${e.hint}`);
  } else if (result.status === "interrupted") {
    io.out(`⏸ paused on thread ${result.threadId}`);
    for (const i of result.interrupts)
      io.out(`  ${i.node} asks (id ${i.id}):\n${show(i.value).replace(/^/gm, "    ")}`);
    if (!result.interrupts.length) io.out(`  before: ${result.next.join(", ")}`);
    const value = result.interrupts.length ? " --value '<JSON>'" : "";
    io.out(`  resume: graphspec resume ${graph} --thread ${result.threadId}${value}`);
  } else {
    io.out(`✔ completed on thread ${result.threadId}`);
  }
  io.out(`output:\n${show(result.output).replace(/^/gm, "  ")}`);
  const u = result.usage;
  if (u.totalTokens)
    io.out(`usage: ${u.inputTokens} in, ${u.outputTokens} out, ${u.totalTokens} tokens`);
}

/** Runs through the executor's event stream, showing progress on stderr as it happens. */
async function runWithProgress(
  io: Io,
  exec: import("../../run/executor.js").Executor,
  graph: string,
  opts: import("../../run/executor.js").RunOptions,
): Promise<RunResult> {
  let line = "";
  const flush = () => {
    if (line) io.err(`  ${line}`);
    line = "";
  };
  for await (const e of exec.stream(graph, opts)) {
    switch (e.type) {
      case "node_start":
        flush();
        io.err(`▶ ${e.node}`);
        break;
      case "tool_call":
        flush();
        io.err(`  ↳ ${e.tool} ${JSON.stringify(e.args)}`);
        break;
      case "token":
        line += e.text;
        break;
      case "completed":
      case "interrupted":
      case "failed":
        flush();
        return e.result;
    }
  }
  throw new Error("the run's event stream ended without a final event");
}

async function execute(io: Io, argv: string[], mode: "run" | "resume"): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: OPTIONS,
  });
  if (values.help) {
    io.out(mode === "run" ? runHelp : resumeHelp);
    return EXIT.ok;
  }
  let graph = positionals[0];
  if (positionals.length > 1 || (!graph && mode === "run")) {
    throw new UsageError(`${mode} takes one spec file or graph name`);
  }
  if (mode === "resume" && !values.thread) throw new UsageError("resume needs --thread <id>");
  if (mode === "run" && values.value !== undefined)
    throw new UsageError("--value belongs to `graphspec resume`");
  const context = jsonArg(io, "context", values.context) as Record<string, unknown> | undefined;
  const scripts = jsonArg(io, "scripts", values.scripts) as Record<string, never[]> | undefined;
  const { toPlain } = await import("../../run/serialize.js");
  const exec = await cliExecutor(io, values.checkpointer, {
    requireDurable: values["require-durable"],
    ...(scripts ? { scripts } : {}),
  });
  if (!graph) {
    // The thread remembers the graph it ran.
    graph = await exec.graphOf(values.thread!);
    if (!graph)
      throw new UsageError(`thread \`${values.thread}\` is not known: give the spec or graph name`);
  }
  let result: RunResult;
  try {
    const progress = mode === "run" && !values.json && (values.progress || io.isTty);
    result = progress
      ? await runWithProgress(io, exec, graph, {
          input: jsonArg(io, "input", values.input) ?? {},
          ...(values.thread ? { threadId: values.thread } : {}),
          ...(context ? { context } : {}),
        })
      : mode === "run"
        ? await exec.run(graph, {
            input: jsonArg(io, "input", values.input) ?? {},
            ...(values.thread ? { threadId: values.thread } : {}),
            ...(context ? { context } : {}),
          })
        : await exec.resume(graph, {
            threadId: values.thread!,
            ...(values.value !== undefined ? { value: jsonArg(io, "value", values.value) } : {}),
            ...(context ? { context } : {}),
          });
  } catch (e) {
    // The spec could not be loaded or compiled: its diagnostics say why.
    const name = (e as Error)?.name;
    if (name !== "SpecError" && name !== "CompileError") throw e;
    io.err(`graphspec ${mode}: ${(e as Error).message}`);
    return EXIT.findings;
  }
  const plain = {
    ...result,
    output: toPlain(result.output) as Record<string, unknown>,
    interrupts: toPlain(result.interrupts),
  } as RunResult;
  if (values.json) io.out(JSON.stringify(plain));
  else printResult(io, graph, plain);
  return result.status === "failed" ? EXIT.findings : EXIT.ok;
}

export const runCommand = (argv: string[], io: Io) => execute(io, argv, "run");
export const resumeCommand = (argv: string[], io: Io) => execute(io, argv, "resume");
