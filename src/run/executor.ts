/**
 * The generic executor: compiles graphs by name or path once, runs and resumes
 * them on threads with a checkpointer, and returns a RunResult — status, output, interrupts, next
 * nodes, summed token usage, warnings, and a structured error instead of a thrown one.
 */
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { Command, type StateSnapshot } from "@langchain/langgraph";
import { findProjectRoot } from "../spec/project-root.js";
import { secretValues } from "../spec/secrets.js";
import { atCheckpoint, missingCheckpoint } from "./checkpoint-at.js";
import { GRAPH_KEY } from "./checkpointer.js";
import { toRunError } from "./classify-error.js";
import type { RunEvent } from "./events.js";
import { type Execution, executeRun } from "./execute-run.js";
import type {
  Executor,
  ExecutorOptions,
  ResumeOptions,
  RunChoiceOptions,
  RunOptions,
  StreamOptions,
  ThreadState,
} from "./executor-api.js";
import { graphChanged } from "./graph-changed.js";
import type { GraphStreamRequest } from "./graph-chunks.js";
import { graphLoader, type Loaded, type RegistryOptions } from "./graph-loader.js";
import type { GraphRegistry } from "./graph-registry.js";
import { persistence } from "./persistence.js";
import type { RunResult } from "./result.js";
import { checkRunArguments } from "./run-arguments.js";
import { runSecrets } from "./run-secrets.js";
import { givenRefusal, sizeLimits } from "./size-limits.js";
import { threadGraphs } from "./thread-graph.js";
import { graphForThread, onThread, refused } from "./thread-guard.js";
import { threadSnapshot } from "./thread-snapshot.js";
import { threadIndex } from "./threads.js";

/**
 * A checkpoint's tasks with their interrupts, as `state` and `history` report them; an interrupt
 * node's `schema` travels as `response_schema`, so a client reading the thread back can render a form.
 */
const tasksOf = (s: StateSnapshot): ThreadState["tasks"] =>
  s.tasks.map((t) => ({
    id: t.id,
    name: t.name,
    interrupts: (t.interrupts ?? []).map((i) => ({
      id: String(i.id),
      value: i.value,
      ...(i.response_schema ? { response_schema: i.response_schema } : {}),
    })),
  }));

export function createExecutor(options: ExecutorOptions = {}): Executor {
  return createReloadableExecutor(options).executor;
}

export type { Loaded, RegistryOptions };

/** An executor and the registry it loads graphs through, which a watcher reloads (dev/). */
export function createReloadableExecutor(
  options: ExecutorOptions = {},
  registryOptions: RegistryOptions = {},
): { executor: Executor; registry: GraphRegistry<Loaded> } {
  const dir = resolve(options.dir ?? "graphs");
  const limits = sizeLimits(options);
  const { saver, store, close } = persistence(options, limits);
  /** The environment's secret-looking variables: masked in every run (run-secrets.ts). */
  const envSecrets = secretValues(options.env ?? process.env);
  const { registry, pathOf, load } = graphLoader(dir, options, registryOptions, { saver, store });

  const index = threadIndex(saver);
  // Specs a thread names in its checkpoints are loaded only from inside this project (thread-graph.ts).
  const owners = threadGraphs(findProjectRoot(dir), index.storedGraph);
  /** The context stored with a thread (secrets left out), and the given context over it. */
  const contextFor = async (threadId: string, given: Record<string, unknown> | undefined) => {
    const stored = await index.contextOf(threadId);
    return stored ? { ...stored, ...given } : given;
  };

  const execute = executeRun({ options, limits, saver, graphs: { load, pathOf }, envSecrets });

  /**
   * What a resume runs: the answer as a Command, or `null` to go on from the last checkpoint —
   * or, when the thread is finished or unknown, the RunResult saying so.
   */
  async function resumeInput(
    graph: string,
    opts: ResumeOptions & { checkpointId?: string },
    loaded: Loaded,
  ): Promise<unknown> {
    const { graph: compiled, spec } = loaded;
    /** Where the thread stands, read only: what a resume that cannot go on answers with. */
    const inspect = () =>
      execute({
        graph,
        input: undefined,
        threadId: opts.threadId,
        context: undefined,
        inspectOnly: true,
        loaded,
      });
    // From a checkpoint: what is pending there (its interrupt, its next nodes), not at the latest.
    const before =
      opts.checkpointId !== undefined
        ? await compiled.getState({ configurable: atCheckpoint(opts.threadId, opts.checkpointId) })
        : (await threadSnapshot(compiled, (await saver()).saver, opts.threadId)).snapshot;
    // A thread paused under an earlier version of the spec, at a node (or with a channel) it lost.
    const changed = before.config?.configurable?.checkpoint_id
      ? await graphChanged((await saver()).saver, opts.threadId, spec)
      : undefined;
    if (changed) {
      const result = await inspect();
      return { ...result, status: "failed", error: changed } satisfies RunResult;
    }
    const pending = before.next.length > 0 || before.tasks.some((t) => t.interrupts?.length);
    if (!before.config?.configurable?.checkpoint_id || !pending) {
      const result = await inspect();
      return {
        ...result,
        status: "failed",
        error: {
          code: "nothing-to-resume",
          phase: "input",
          message: before.config?.configurable?.checkpoint_id
            ? `thread \`${opts.threadId}\` has nothing to resume: its run has completed`
            : `there is no thread \`${opts.threadId}\` of graph \`${graph}\``,
          hint: "start a new run with `graphspec run`, or check the thread id",
        },
      } satisfies RunResult;
    }
    if (opts.value === undefined) return null;
    // LangGraph reads `resume: null` as no answer at all; null is an answer: give it by interrupt id.
    const ids = before.tasks.flatMap((t) => (t.interrupts ?? []).map((i) => i.id));
    if (opts.value === null && ids.length && ids.every((id) => typeof id === "string")) {
      return new Command({ resume: Object.fromEntries(ids.map((id) => [id, null])) });
    }
    return new Command({ resume: opts.value });
  }
  const isResult = (v: unknown): v is RunResult =>
    typeof v === "object" && v !== null && "status" in v && !(v instanceof Command);

  /** The execution of a run or a resume, with the thread's stored context under the given one. */
  async function executionOf(
    graph: string,
    opts: RunOptions | ResumeOptions,
    input: unknown,
    threadId: string,
  ): Promise<Execution> {
    const { maxTokens, deadline, signal, recursionLimit, interruptBefore, interruptAfter } = opts;
    // A thread keeps the model its runs chose, as it keeps their context; a new choice replaces it.
    const model = opts.model ?? (opts.threadId ? await index.modelOf(opts.threadId) : undefined);
    const choices = Object.fromEntries(
      Object.entries({ model, recursionLimit, interruptBefore, interruptAfter }).filter(
        ([, v]) => v !== undefined,
      ),
    ) as RunChoiceOptions;
    const allowedTools =
      opts.allowedTools ?? (opts.threadId ? await index.allowedToolsOf(opts.threadId) : undefined);
    return {
      graph,
      choices,
      input,
      threadId,
      context: opts.threadId ? await contextFor(opts.threadId, opts.context) : opts.context,
      ...(allowedTools !== undefined ? { allowedTools } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(deadline !== undefined ? { deadline } : {}),
      ...(signal ? { signal } : {}),
    };
  }

  /** A run (or with `resume`, a resume) on a thread claimed for it, events to `onEvent`. */
  async function runOnThread(
    graph: string,
    opts: ((RunOptions & { resume?: undefined }) | (ResumeOptions & { resume: true })) & {
      checkpointId?: string;
    },
    onEvent?: (event: RunEvent) => void,
    graphStream?: GraphStreamRequest,
  ): Promise<RunResult> {
    const threadId = opts.threadId ?? randomUUID();
    const { claims } = await saver();
    return onThread(claims, owners, threadId, pathOf(graph), async () => {
      // One version for the whole run, however many reloads happen meanwhile.
      const loaded = await load(graph);
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

  /** The graph a thread ran, when it is a spec inside the project (never a path elsewhere). */
  const graphOf = async (threadId: string): Promise<string | undefined> => {
    const stored = await owners.storedGraph(threadId);
    return stored && "path" in stored ? stored.path : undefined;
  };

  const executor: Executor = {
    threads: index.threads,
    graphOf,
    contextOf: index.contextOf,
    deleteThread: index.deleteThread,
    deleteThreads: index.deleteThreads,
    /** Where a thread stands, as a RunResult, without running anything. */
    async inspect(threadId: string, graph?: string): Promise<RunResult | undefined> {
      const found = await graphForThread(owners, threadId, graph && pathOf(graph));
      if (found === undefined) return undefined;
      if ("refusal" in found) return found.refusal;
      return execute({
        graph: found.path,
        input: undefined,
        threadId,
        context: undefined,
        inspectOnly: true,
      });
    },
    /** A thread's checkpoints, newest first: where it stood after each step. */
    async history(
      threadId: string,
      graph?: string,
      opts: { limit?: number; before?: string; filter?: Record<string, unknown> } = {},
    ): Promise<ThreadState[] | undefined> {
      const spec = graph ?? (await graphOf(threadId));
      if (spec === undefined) return undefined;
      const { graph: compiled } = await load(spec);
      const entries: ThreadState[] = [];
      const { limit, before, filter } = opts;
      // The checkpointer's `before` compares ids, so an id the thread lacks would still page.
      if (
        before !== undefined &&
        (await missingCheckpoint((await saver()).saver, threadId, before))
      )
        return entries;
      const paging = {
        ...(limit !== undefined ? { limit } : {}),
        ...(filter !== undefined ? { filter } : {}),
        ...(before !== undefined
          ? { before: { configurable: atCheckpoint(threadId, before) } }
          : {}),
      };
      const config = { configurable: { thread_id: threadId } };
      for await (const s of compiled.getStateHistory(config, paging)) {
        const meta = (s.metadata ?? {}) as { step?: number; source?: string };
        entries.push({
          checkpointId: String(s.config.configurable?.checkpoint_id),
          step: meta.step ?? 0,
          source: meta.source ?? "loop",
          createdAt: s.createdAt,
          next: [...s.next],
          values: s.values as Record<string, unknown>,
          parentCheckpointId: s.parentConfig?.configurable?.checkpoint_id as string | undefined,
          tasks: tasksOf(s),
        });
      }
      return entries;
    },
    /** Where a thread stands: its latest checkpoint (or one asked for), all values, next nodes and their interrupts. */
    async state(
      threadId: string,
      graph?: string,
      opts: { checkpointId?: string } = {},
    ): Promise<ThreadState | undefined> {
      const found = await graphForThread(owners, threadId, graph && pathOf(graph));
      if (found === undefined || "refusal" in found) return undefined;
      const { graph: compiled } = await load(found.path);
      const asked = opts.checkpointId;
      if (asked !== undefined) {
        // Looked up within the thread only: `checkpoint-at.ts` says why before LangGraph reads it.
        if (await missingCheckpoint((await saver()).saver, threadId, asked)) return undefined;
      }
      const s =
        asked === undefined
          ? (await threadSnapshot(compiled, (await saver()).saver, threadId)).snapshot
          : await compiled.getState({ configurable: atCheckpoint(threadId, asked) });
      const checkpointId = s.config?.configurable?.checkpoint_id as string | undefined;
      if (!checkpointId || (asked !== undefined && checkpointId !== asked)) return undefined;
      const meta = (s.metadata ?? {}) as { step?: number; source?: string };
      return {
        checkpointId,
        parentCheckpointId: s.parentConfig?.configurable?.checkpoint_id as string | undefined,
        step: meta.step ?? 0,
        source: meta.source ?? "loop",
        createdAt: s.createdAt,
        next: [...s.next],
        values: s.values as Record<string, unknown>,
        tasks: tasksOf(s),
      };
    },
    /** Writes values to a thread as node `asNode` would have, with the thread claimed. */
    async updateState(
      threadId: string,
      values: Record<string, unknown>,
      opts: { graph?: string; asNode?: string; checkpointId?: string } = {},
    ): Promise<{ checkpointId: string } | RunResult> {
      const found = await graphForThread(owners, threadId, opts.graph && pathOf(opts.graph));
      if (found === undefined) {
        return refused(threadId, {
          code: "nothing-to-resume",
          phase: "input",
          message: `there is no thread \`${threadId}\` to update`,
          hint: "run the graph on the thread first, or check the thread id",
        });
      }
      if ("refusal" in found) return found.refusal;
      const refusal = givenRefusal(values, undefined, limits);
      if (refusal) return refused(threadId, refusal);
      const { claims } = await saver();
      // onThread answers with a RunResult (a refusal); the update's own answer is its checkpoint id.
      let written: { checkpointId: string } | undefined;
      const outcome = await onThread(claims, owners, threadId, found.path, async () => {
        const { graph: compiled, secrets: specified } = await load(found.path);
        const from = opts.checkpointId;
        if (from !== undefined) {
          const missing = await missingCheckpoint((await saver()).saver, threadId, from);
          if (missing) return refused(threadId, missing);
        }
        // What is written is masked as a run's writes are (secret-guard.ts, through `configurable`).
        const secrets = runSecrets(specified, envSecrets, undefined);
        const config = {
          configurable: {
            thread_id: threadId,
            // A fork: the new checkpoint's parent is `from`, the thread's latest moves to it.
            ...(from !== undefined ? atCheckpoint(threadId, from) : {}),
            [GRAPH_KEY]: found.path,
            ...secrets.configurable,
          },
        };
        try {
          const next = await compiled.updateState(config, values, opts.asNode);
          written = { checkpointId: String(next.configurable?.checkpoint_id) };
        } catch (e) {
          return refused(threadId, toRunError(e, opts.asNode));
        }
        return refused(threadId, { code: "cancelled", phase: "run", message: "not reached" });
      });
      return written ?? outcome;
    },
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
      const { resume, continue: goOn, graphStream, ...rest } = opts;
      const resuming = opts.threadId !== undefined && (resume !== undefined || goOn === true);
      const run = resuming
        ? runOnThread(
            graph,
            { ...rest, threadId, resume: true, ...(resume !== undefined ? { value: resume } : {}) },
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
    /** Closes the checkpointer's connections (a PostgreSQL pool keeps the process alive). */
    close,
  };
  return { executor, registry };
}
