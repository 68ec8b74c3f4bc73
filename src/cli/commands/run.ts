/**
 * `graphspec run` and `graphspec resume`: one run through the executor, its RunResult printed —
 * a readable summary, or with `--json` exactly one JSON object on stdout.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { ScriptQueues } from "../../compile/models/script.js";
import type { Executor, StreamOptions } from "../../run/executor-api.js";
import type { RunResult } from "../../run/result.js";
import {
  countArg,
  deadlineArg,
  jsonArg,
  listArg,
  nodeListArg,
  sizeLimitArgs,
  threadArg,
} from "../args.js";
import { ENV_FILE_HELP, ENV_FILE_OPTION, loadEnvFile } from "../env-file.js";
import { withExecutor } from "../executor.js";
import { EXIT, type Io, UsageError } from "../io.js";
import { recordingArg } from "../recording-arg.js";
import { scriptsArg } from "../scripts-arg.js";

export const runHelp = `Usage: graphspec run <spec|name> [options]

Runs a graph: a spec file, or a name found in graphs/ (graphs/NAME.yaml).

Options:
  -i, --input <JSON|@file>        the run's input (default {})
  -t, --thread <id>               the thread to run on (default: a new one)
  -c, --context <JSON|@file>      the run's context (stored with the thread, secret keys left out)
      --checkpointer <memory|sqlite|postgres>
                                  where checkpoints are kept (default sqlite: .graphspec/state.db;
                                  postgres: DATABASE_URL; or set GRAPHSPEC_CHECKPOINTER)
      --max-tokens <n>            stop the run once its model calls have used more than n tokens
      --deadline <30s|5m|ISO time>  stop the run at this time
      --model <name>              run with this model, from a model's \`allow\` list in the spec
      --recursion-limit <n>       at most n super-steps (in place of the spec's limits.recursion)
      --interrupt-before <a,b>    pause before these nodes (* for every node)
      --interrupt-after <a,b>     pause after these nodes (* for every node)
      --allow-tools <a,b>         the tools the run's models may call (others are denied, and the
                                  model is told so); kept with the thread
      --store <memory|postgres>   LangGraph's store for nodes and tools (runtime.store); postgres:
                                  DATABASE_URL. Default: none
      --scripts <JSON|@file>      model answers: the run is offline, each model answering from the
                                  script under its entry name or its model (openai:gpt-4o-mini);
                                  @x.test.yaml[#test] takes a fixture test's scripts (the first)
      --record <file>             store the run's provider exchanges in file, secrets masked
      --replay <file>             answer the models from a recording, offline: a request it does
                                  not hold fails the run, naming the call and what differs
      --max-input-bytes <size>    refuse a larger input or context (default 1MiB; sizes: 512KiB, 4MiB)
      --max-state-bytes <size>    fail a step whose state would be larger (default 16MiB)
      --max-thread-bytes <size>   prune a thread's oldest checkpoints past this (default 64MiB; SQLite)
${ENV_FILE_HELP}
      --require-durable           fail, rather than warn, when a graph that can pause would keep
                                  its checkpoints in memory only
      --progress                  show nodes, tool calls and tokens as they happen, on stderr
                                  (the default on a terminal)
      --json                      print the RunResult as one JSON object
  -h, --help                      show this help

A run stopped by --max-tokens, --deadline or Ctrl-C keeps its checkpoints: \`graphspec resume\`
goes on from the last one. A second Ctrl-C ends the process at once.

Exit: 0 completed or paused, 1 failed (or the spec has errors), 2 usage error.`;

export const resumeHelp = `Usage: graphspec resume [spec|name] --thread <id> [options]

Answers a paused run with --value, or continues a stopped one from its last checkpoint.
The spec may be left out: the thread remembers the graph it ran.

Options:
  -t, --thread <id>               the thread (required)
      --value <JSON|@file>        the answer to the pending interrupt (an id map when several are pending)
  -c, --context <JSON|@file>      context keys to add (the thread's stored context is used)
      --checkpointer <memory|sqlite|postgres>  default sqlite
      --max-tokens <n>            stop once the resumed run has used more than n tokens
      --deadline <30s|5m|ISO time>  stop the resumed run at this time
      --model <name>              go on with this model, from a model's \`allow\` list in the spec
      --recursion-limit <n>       at most n super-steps for the resumed run
      --interrupt-before <a,b>    pause before these nodes (* for every node)
      --interrupt-after <a,b>     pause after these nodes (* for every node)
      --allow-tools <a,b>         the tools the resumed run's models may call (default: the thread's list)
      --store <memory|postgres>   LangGraph's store for nodes and tools
      --scripts <JSON|@file>      model answers, as for \`graphspec run\`
      --record <file>, --replay <file>  as for \`graphspec run\`
      --max-resume-bytes <size>   refuse a larger --value (default 1MiB; sizes: 512KiB, 4MiB)
      --max-input-bytes <size>    refuse a larger context (default 1MiB)
      --max-state-bytes <size>    fail a step whose state would be larger (default 16MiB)
      --max-thread-bytes <size>   prune a thread's oldest checkpoints past this (default 64MiB; SQLite)
${ENV_FILE_HELP}
      --json                      print the RunResult as one JSON object
  -h, --help                      show this help`;

const OPTIONS = {
  input: { type: "string", short: "i" },
  thread: { type: "string", short: "t" },
  context: { type: "string", short: "c" },
  value: { type: "string" },
  checkpointer: { type: "string" },
  "max-tokens": { type: "string" },
  deadline: { type: "string" },
  model: { type: "string" },
  "recursion-limit": { type: "string" },
  "interrupt-before": { type: "string" },
  "interrupt-after": { type: "string" },
  "allow-tools": { type: "string" },
  store: { type: "string" },
  scripts: { type: "string" },
  record: { type: "string" },
  replay: { type: "string" },
  "max-input-bytes": { type: "string" },
  "max-resume-bytes": { type: "string" },
  "max-state-bytes": { type: "string" },
  "max-thread-bytes": { type: "string" },
  ...ENV_FILE_OPTION,
  "require-durable": { type: "boolean", default: false },
  progress: { type: "boolean", default: false },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
} as const;

const show = (v: unknown) => JSON.stringify(v, null, 2);

/** What the `resume:` line needs: how to name the graph, where the thread is kept, what the thread did not keep. */
interface ResumeHint {
  /** The graph as the user named it; undefined when the thread gave it (a resume without a spec). */
  graph: string | undefined;
  /** `--checkpointer X` to repeat (a choice the next command would not make by itself). */
  checkpointerFlag: string | undefined;
  /** The checkpoints end with this process: there is nothing to resume later. */
  inMemory: boolean;
  /** Context keys the thread does not keep (secret ones): a resume must be given them again. */
  dropped: string[];
}

/** The `resume:` line(s) of a paused or stopped run: a command that works, or why there is none. */
function printResume(io: Io, result: RunResult, hint: ResumeHint, value: boolean): void {
  if (hint.inMemory) {
    io.out(
      "  cannot be resumed: its checkpoints were kept in memory and end with this command; run it with --checkpointer sqlite (the default) or postgres to resume it later",
    );
    return;
  }
  const context = hint.dropped.length
    ? ` --context '${JSON.stringify(Object.fromEntries(hint.dropped.map((k) => [k, `<${k}>`])))}'`
    : "";
  io.out(
    `  resume: graphspec resume${hint.graph ? ` ${hint.graph}` : ""} --thread ${result.threadId}${hint.checkpointerFlag ? ` --checkpointer ${hint.checkpointerFlag}` : ""}${value ? " --value '<JSON>'" : ""}${context}`,
  );
  for (const k of hint.dropped)
    io.out(
      `  \`${k}\` is secret: it is not stored with the thread, so give it again with --context`,
    );
}

function printResult(io: Io, result: RunResult, hint: ResumeHint): void {
  for (const w of result.warnings) io.err(`warning: ${w}`);
  if (result.status === "failed" && result.error) {
    const e = result.error;
    io.out(`✖ failed${e.node ? ` in node \`${e.node}\`` : ""} [${e.code}]: ${e.message}`);
    if (e.hint) io.out(`  hint: ${e.hint}`);
    // Stopped between checkpoints (budget, deadline, cancel, a failed node): it can go on.
    if (result.next.length) printResume(io, result, hint, false);
  } else if (result.status === "interrupted") {
    io.out(`⏸ paused on thread ${result.threadId}`);
    for (const i of result.interrupts)
      io.out(`  ${i.node} asks (id ${i.id}):\n${show(i.value).replace(/^/gm, "    ")}`);
    if (!result.interrupts.length) io.out(`  before: ${result.next.join(", ")}`);
    printResume(io, result, hint, result.interrupts.length > 0);
  } else {
    io.out(`✔ completed on thread ${result.threadId}`);
  }
  io.out(`output:\n${show(result.output).replace(/^/gm, "  ")}`);
  const u = result.usage;
  if (u.totalTokens)
    io.out(`usage: ${u.inputTokens} in, ${u.outputTokens} out, ${u.totalTokens} tokens`);
}

/**
 * The context keys a resume of this thread must be given again: those given that the thread did
 * not store (secret keys), and the one a refused context names.
 */
async function droppedContext(
  exec: Executor,
  result: RunResult,
  given: Record<string, unknown> | undefined,
): Promise<string[]> {
  if (result.status === "completed") return [];
  const stored = (await exec.contextOf(result.threadId)) ?? {};
  const keys = Object.keys(given ?? {}).filter((k) => !Object.hasOwn(stored, k));
  const field = result.error?.code === "invalid-context" ? result.error.field : undefined;
  if (field && !keys.includes(field) && !Object.hasOwn(stored, field)) keys.push(field);
  return keys;
}

/** Runs through the executor's event stream, showing progress on stderr as it happens. */
async function runWithProgress(
  say: (line: string) => void,
  exec: Executor,
  graph: string,
  opts: StreamOptions,
): Promise<RunResult> {
  let line = "";
  const flush = () => {
    if (line) say(`  ${line}`);
    line = "";
  };
  for await (const e of exec.stream(graph, opts)) {
    switch (e.type) {
      case "node_start":
        flush();
        say(`▶ ${e.node}`);
        break;
      case "tool_call":
        flush();
        say(`  ↳ ${e.tool} ${JSON.stringify(e.args)}`);
        break;
      case "tool_denied":
        flush();
        say(`  ⊘ ${e.tool} denied: this run may use ${e.allowedTools.join(", ") || "no tool"}`);
        break;
      case "custom":
        flush();
        say(`  · ${JSON.stringify(e.data)}`);
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
  // Before anything reads the environment: the project's .env fills in what it lacks.
  const { secrets } = loadEnvFile(io, values["env-file"]);
  threadArg("--thread", values.thread);
  const named = positionals[0];
  if (positionals.length > 1 || (!named && mode === "run")) {
    throw new UsageError(`${mode} takes one spec file or graph name`);
  }
  // A spec's path is the caller's, from the folder the command runs in (io.cwd: `main()` may be
  // called from a program whose process stands elsewhere); a bare name is found in graphs/.
  let graph = named && /\.(ya?ml|json)$/.test(named) ? resolve(io.cwd, named) : named;
  if (mode === "resume" && !values.thread) throw new UsageError("resume needs --thread <id>");
  if (mode === "run" && values.value !== undefined)
    throw new UsageError("--value belongs to `graphspec resume`");
  const context = jsonArg(io, "context", values.context) as Record<string, unknown> | undefined;
  const scripts = await scriptsArg(io, values.scripts);
  const recorded = recordingArg(io, values.record, values.replay, secrets);
  const maxTokens = countArg("max-tokens", values["max-tokens"]);
  const deadline = deadlineArg(values.deadline);
  const allowedTools = listArg(values["allow-tools"]);
  const store = values.store;
  if (store !== undefined && store !== "memory" && store !== "postgres")
    throw new UsageError(`--store must be memory or postgres, not "${store}"`);
  const input = mode === "run" ? (jsonArg(io, "input", values.input) ?? {}) : undefined;
  const value = jsonArg(io, "value", values.value);
  if (mode === "run" && values["max-resume-bytes"] !== undefined)
    throw new UsageError("--max-resume-bytes belongs to `graphspec resume`");
  const sizes = sizeLimitArgs(values);
  // The first Ctrl-C stops the run between checkpoints, so it can be resumed.
  const cancel = new AbortController();
  const stopListening = io.onInterrupt?.(() => {
    io.err("stopping at the next checkpoint (Ctrl-C again to quit at once)…");
    cancel.abort();
  });
  const recursionLimit = countArg("recursion-limit", values["recursion-limit"]);
  const interruptBefore = nodeListArg("interrupt-before", values["interrupt-before"]);
  const interruptAfter = nodeListArg("interrupt-after", values["interrupt-after"]);
  if (values.model !== undefined && !values.model.trim())
    throw new UsageError("--model needs a model name");
  const limits = {
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(recursionLimit !== undefined ? { recursionLimit } : {}),
    ...(interruptBefore !== undefined ? { interruptBefore } : {}),
    ...(interruptAfter !== undefined ? { interruptAfter } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(deadline !== undefined ? { deadline } : {}),
    signal: cancel.signal,
    ...(context ? { context } : {}),
    ...(values.thread ? { threadId: values.thread } : {}),
    ...(allowedTools ? { allowedTools } : {}),
  };
  const { toPlain } = await import("../../run/serialize.js");
  let dropped: string[] = [];
  let result: RunResult;
  try {
    result = await withExecutor(
      io,
      values.checkpointer,
      {
        ...sizes,
        ...(secrets.length ? { secrets } : {}),
        requireDurable: values["require-durable"],
        ...(store ? { store } : {}),
        // Given scripts, no model reaches its provider (compile/models/script-key.ts). A model
        // with no script fails when it is called, not when the graph compiles: a resume that
        // calls no model needs no --scripts.
        ...(scripts ? { scripts: new ScriptQueues(scripts, { anyName: true }) } : {}),
        ...(recorded ? { recording: recorded.recording } : {}),
      },
      async (exec) => {
        if (!graph) {
          // The thread remembers the graph it ran (when it is a spec inside the project).
          graph = await exec.graphOf(values.thread!);
          if (!graph) {
            // A thread that names a spec elsewhere is refused: the result says so.
            const refusal = await exec.inspect(values.thread!);
            if (refusal?.error) return refusal;
            throw new UsageError(
              `thread \`${values.thread}\` is not known: give the spec or graph name`,
            );
          }
        }
        const shown = !values.json && (values.progress || io.isTty);
        // Recorded and replayed through the event stream, as `graphspec test` and `dev` run
        // graphs: the models' calls are streamed in all of them, so one recording serves all.
        const progress = shown || recorded !== undefined;
        const say = shown ? (line: string) => io.err(line) : () => {};
        let done: RunResult;
        if (mode === "resume") {
          const threadId = values.thread!;
          const answer = value !== undefined ? { resume: value } : { continue: true };
          done = progress
            ? await runWithProgress(say, exec, graph, { ...limits, ...answer })
            : await exec.resume(graph, {
                ...limits,
                threadId,
                ...(value !== undefined ? { value } : {}),
              });
        } else {
          done = progress
            ? await runWithProgress(say, exec, graph, { ...limits, input })
            : await exec.run(graph, { ...limits, input });
        }
        if (!values.json) dropped = await droppedContext(exec, done, context);
        return done;
      },
    );
  } catch (e) {
    // The spec could not be loaded or compiled: its diagnostics say why.
    const name = (e as Error)?.name;
    if (name !== "SpecError" && name !== "CompileError") throw e;
    io.err(`graphspec ${mode}: ${(e as Error).message}`);
    return EXIT.findings;
  } finally {
    stopListening?.();
    recorded?.finish();
  }
  const plain = {
    ...result,
    output: toPlain(result.output) as Record<string, unknown>,
    interrupts: toPlain(result.interrupts),
  } as RunResult;
  if (values.json) io.out(JSON.stringify(plain));
  else {
    const choice = values.checkpointer ?? process.env.GRAPHSPEC_CHECKPOINTER ?? "sqlite";
    printResult(io, plain, {
      graph: named,
      // The environment's choice is the next command's too; a flag is repeated.
      checkpointerFlag:
        values.checkpointer && values.checkpointer !== "sqlite" ? values.checkpointer : undefined,
      inMemory: choice === "memory",
      dropped,
    });
  }
  return result.status === "failed" ? EXIT.findings : EXIT.ok;
}

export const runCommand = (argv: string[], io: Io) => execute(io, argv, "run");
export const resumeCommand = (argv: string[], io: Io) => execute(io, argv, "resume");
