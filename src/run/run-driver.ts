/**
 * The executor's runs — `run`, `resume` and `stream` — each on a thread claimed for it
 * (thread-guard.ts), with the version of the graph it took when it started, the model, context and
 * tool allowlist the thread keeps (a new choice replaces them), and a run from an earlier
 * checkpoint of the thread; `stream` hands over the run's events as they come, ending with one
 * final event carrying the RunResult.
 */
import { randomUUID } from "node:crypto";
import { Command } from "@langchain/langgraph";
import { CompileError } from "../compile/compile-error.js";
import { failsRun } from "../compile/fails-run.js";
import { atCheckpoint, missingCheckpoint } from "./checkpoint-at.js";
import { GRAPH_KEY } from "./checkpointer.js";
import type { RunEvent } from "./events.js";
import type { Execute, Execution } from "./execute-run.js";
import type {
  Executor,
  ResumeOptions,
  RunChoiceOptions,
  RunOptions,
  StreamOptions,
} from "./executor-api.js";
import type { GraphStreamRequest } from "./graph-chunks.js";
import type { GraphLoader } from "./graph-loader.js";
import type { Persistence } from "./persistence.js";
import type { RunError, RunResult } from "./result.js";
import type { ResumeInput } from "./resume-input.js";
import { checkRunArguments } from "./run-arguments.js";
import type { ThreadGraphs } from "./thread-graph.js";
import { onThread, refused } from "./thread-guard.js";
import type { ThreadIndex } from "./threads.js";

/**
 * A graph whose MCP server could not be reached to list its tools fails this run, as the tool call
 * of a hand-written program would, rather than throwing as a spec that cannot compile: nothing ran,
 * the thread's last checkpoint is kept, and the next run loads the graph again (a failed build is
 * not kept: graph-registry.ts). Any other load failure is thrown.
 */
function unreachableAtLoad(e: unknown): RunError {
  if (!(e instanceof CompileError) || !failsRun(e.cause)) throw e;
  const { code, message, hint } = e.cause;
  return { code, phase: "run", message, ...(hint ? { hint } : {}) };
}

/** What running needs of the executor's other parts. */
export interface DriverParts {
  saver: Persistence["saver"];
  graphs: Pick<GraphLoader, "load" | "pathOf">;
  /** What a thread keeps from its runs: context, model, tool allowlist (threads.ts). */
  index: Pick<ThreadIndex, "keptOf">;
  /** Which graph a thread belongs to (thread-graph.ts). */
  owners: ThreadGraphs;
  execute: Execute;
  resumeInput: ResumeInput;
}

export function runDriver(parts: DriverParts): Pick<Executor, "stream" | "run" | "resume"> {
  const {
    saver,
    graphs: { load, pathOf },
    index,
    owners,
    execute,
    resumeInput,
  } = parts;
  const isResult = (v: unknown): v is RunResult =>
    typeof v === "object" && v !== null && "status" in v && !(v instanceof Command);

  /** The execution of a run or a resume, with the thread's stored context under the given one. */
  async function executionOf(
    graph: string,
    opts: RunOptions | ResumeOptions,
    input: unknown,
    threadId: string,
  ): Promise<Execution> {
    const {
      maxTokens,
      deadline,
      signal,
      recursionLimit,
      interruptBefore,
      interruptAfter,
      standIn,
    } = opts;
    // A thread keeps the model its runs chose, their context (secrets left out: the given
    // context goes over it) and tool allowlist; a new choice replaces them. Read once.
    const kept = opts.threadId ? await index.keptOf(opts.threadId) : {};
    const model = opts.model ?? kept.model;
    const choices = Object.fromEntries(
      Object.entries({ model, recursionLimit, interruptBefore, interruptAfter, standIn }).filter(
        ([, v]) => v !== undefined,
      ),
    ) as RunChoiceOptions;
    const allowedTools = opts.allowedTools ?? kept.allowedTools;
    return {
      graph,
      choices,
      input,
      threadId,
      context: kept.context ? { ...kept.context, ...opts.context } : opts.context,
      ...(allowedTools !== undefined ? { allowedTools } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(deadline !== undefined ? { deadline } : {}),
      ...(signal ? { signal } : {}),
    };
  }

  /** A run (or with `resume`, a resume) on a thread claimed for it, events to `onEvent`. */
  async function runOnThread(
    graph: string,
    opts: (
      | (RunOptions & { resume?: undefined })
      | (ResumeOptions & { resume: true; idleCompletes?: boolean })
    ) & {
      checkpointId?: string;
    },
    onEvent?: (event: RunEvent) => void,
    graphStream?: GraphStreamRequest,
  ): Promise<RunResult> {
    const threadId = opts.threadId ?? randomUUID();
    const { claims } = await saver();
    return onThread(claims, owners, threadId, pathOf(graph), async () => {
      // One version for the whole run, however many reloads happen meanwhile.
      const loaded = await load(graph).catch(unreachableAtLoad);
      if ("code" in loaded) return refused(threadId, loaded);
      let { checkpointId } = opts;
      if (checkpointId !== undefined) {
        const missing = await missingCheckpoint((await saver()).saver, threadId, checkpointId);
        if (missing) return refused(threadId, missing);
        // An answer to an earlier interrupt: LangGraph would replay the answer that checkpoint
        // already got (its writes are kept with it). A new checkpoint on top of it, with the same
        // values and next nodes and none of those writes, takes the new answer.
        if (opts.resume && opts.value !== undefined) {
          const branch = await loaded.graph.updateState(
            {
              configurable: { ...atCheckpoint(threadId, checkpointId), [GRAPH_KEY]: pathOf(graph) },
            },
            undefined,
          );
          checkpointId = String(branch.configurable?.checkpoint_id);
        }
      }
      const input = opts.resume
        ? await resumeInput(graph, { ...opts, threadId }, loaded)
        : (opts.input ?? {});
      if (isResult(input)) return input;
      const run = {
        ...(await executionOf(graph, opts, input, threadId)),
        loaded,
        ...(checkpointId !== undefined ? { checkpointId } : {}),
      };
      return execute(onEvent ? { ...run, onEvent, ...(graphStream ? { graphStream } : {}) } : run);
    });
  }

  return {
    /**
     * A run as its events, in order, ending with exactly one final event (`completed`,
     * `interrupted` or `failed`) carrying the RunResult. With `resume` (the answer, `null`
     * included) or `continue: true` on a `threadId`, answers or continues a stopped run.
     */
    async *stream(graph: string, opts: StreamOptions = {}): AsyncGenerator<RunEvent> {
      checkRunArguments("stream", graph, opts);
      const threadId = opts.threadId ?? randomUUID();
      const queue: RunEvent[] = [{ type: "run_start", threadId, graph }];
      let wake: (() => void) | undefined;
      const push = (e: RunEvent) => {
        queue.push(e);
        wake?.();
      };
      let finished = false;
      let failure: unknown;
      const { resume, continue: goOn, graphStream, goto, update, ...rest } = opts;
      const command = goto !== undefined || update !== undefined;
      const resuming =
        opts.threadId !== undefined && (resume !== undefined || goOn === true || command);
      const run = resuming
        ? runOnThread(
            graph,
            {
              ...rest,
              threadId,
              resume: true,
              ...(resume !== undefined ? { value: resume } : {}),
              ...(goto !== undefined ? { goto } : {}),
              ...(update !== undefined ? { update } : {}),
              // `continue` on a thread whose run has ended runs nothing and completes with its
              // state, as LangGraph's invoke(null) does (a resume of one is refused instead).
              ...(resume === undefined && !command ? { idleCompletes: true } : {}),
            },
            push,
            graphStream,
          )
        : runOnThread(graph, { ...rest, threadId }, push, graphStream);
      // The run goes on (and keeps its thread claimed) until it ends, even if the caller stops reading.
      run
        .then((result) => {
          for (const i of result.interrupts) push({ type: "interrupt", ...i });
          push({ type: result.status, result });
        })
        // A spec that cannot be loaded or compiled is thrown to the caller, as from run().
        .catch((e: unknown) => {
          failure = e;
        })
        .finally(() => {
          finished = true;
          wake?.();
        });
      for (;;) {
        while (queue.length) yield queue.shift()!;
        if (finished) break;
        await new Promise<void>((r) => {
          wake = r;
        });
        wake = undefined;
      }
      if (failure !== undefined) throw failure;
    },
    /** Starts a run on a new thread (or continues `threadId` with new input). */
    async run(graph: string, opts: RunOptions = {}): Promise<RunResult> {
      checkRunArguments("run", graph, opts);
      return runOnThread(graph, opts);
    },
    /** Answers a paused run, or continues a stopped one from its last checkpoint. */
    async resume(graph: string, opts: ResumeOptions): Promise<RunResult> {
      checkRunArguments("resume", graph, opts);
      return runOnThread(graph, { ...opts, resume: true });
    },
  };
}
