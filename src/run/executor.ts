/**
 * The generic executor (architecture.md): compiles graphs by name or path once, runs and resumes
 * them on threads with a checkpointer, and returns a RunResult — status, output, interrupts, next
 * nodes, summed token usage, warnings, and a structured error instead of a thrown one.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { Command } from "@langchain/langgraph";
import { compile, type SpecGraph } from "../compile/compile.js";
import type { CompileOptions } from "../compile/options.js";
import { loadSpec } from "../spec/load.js";
import type { GraphSpec } from "../spec/spec-types.js";
import {
  type CheckpointerChoice,
  GRAPH_KEY,
  type OpenCheckpointer,
  openCheckpointer,
} from "./checkpointer.js";
import { toRunError } from "./errors.js";
import { eventMapper, type RunEvent } from "./events.js";
import type { PendingInterrupt, RunError, RunResult } from "./result.js";
import { UsageCollector } from "./usage.js";

export interface ExecutorOptions
  extends Pick<CompileOptions, "scripts" | "models" | "tools" | "env"> {
  /** Where graphs named without a path live. Default `graphs`. */
  dir?: string;
  /** Default `sqlite` (`.graphspec/state.db`). */
  checkpointer?: CheckpointerChoice;
  sqlitePath?: string;
  /** Refuse to run a graph that can pause for a person when checkpoints are not durable. */
  requireDurable?: boolean;
}

export interface RunOptions {
  input?: unknown;
  threadId?: string;
  context?: Record<string, unknown>;
}

export interface ResumeOptions {
  threadId: string;
  /** The answer to the pending interrupt (an id map when several are pending); without it, the run continues from its last checkpoint. */
  value?: unknown;
  context?: Record<string, unknown>;
}

export interface ThreadInfo {
  threadId: string;
  /** The spec file the thread ran. */
  graph?: string;
  checkpointId: string;
  /** When its latest checkpoint was written (ISO time). */
  updatedAt: string;
}

interface Loaded {
  graph: SpecGraph;
  spec: GraphSpec;
}

const SPEC_EXTENSIONS = [".yaml", ".yml", ".json"];

/** Whether a spec can pause a run: interrupt nodes, agents with approvals, breakpoints. */
const canPause = (spec: GraphSpec): boolean =>
  Boolean(spec.interrupts?.before?.length || spec.interrupts?.after?.length) ||
  Object.values(spec.nodes).some(
    (n) =>
      n.kind === "interrupt" || (n.kind === "agent" && n.approve?.length) || n.kind === "subgraph",
  );

export function createExecutor(options: ExecutorOptions = {}) {
  const dir = resolve(options.dir ?? "graphs");
  const graphs = new Map<string, Promise<Loaded>>();
  const modules = new Map<string, unknown>();
  let checkpointer: Promise<OpenCheckpointer> | undefined;
  const saver = () => {
    checkpointer ??= openCheckpointer(options.checkpointer ?? "sqlite", options.sqlitePath);
    return checkpointer;
  };

  /** A graph name (`support-triage` → graphs/support-triage.yaml) or a spec path. */
  const pathOf = (graph: string): string => {
    if (SPEC_EXTENSIONS.some((e) => graph.endsWith(e))) return resolve(graph);
    const found = SPEC_EXTENSIONS.map((e) => join(dir, `${graph}${e}`)).find((p) => existsSync(p));
    return found ?? join(dir, `${graph}.yaml`);
  };

  const load = (graph: string): Promise<Loaded> => {
    const path = pathOf(graph);
    let loaded = graphs.get(path);
    if (!loaded) {
      loaded = (async () => {
        const doc = await loadSpec(path);
        const { saver: cp } = await saver();
        const { dir: _dir, checkpointer: _cp, sqlitePath: _sp, ...compileOptions } = options;
        return {
          graph: await compile(doc, { ...compileOptions, checkpointer: cp, cache: modules }),
          spec: doc.data as GraphSpec,
        };
      })();
      // A spec that failed to load or compile is tried again next time (it may have been fixed).
      loaded.catch(() => graphs.delete(path));
      graphs.set(path, loaded);
    }
    return loaded;
  };

  /** Runs (or with `inspectOnly`, only reads) a thread and reports where it stands. */
  async function execute(
    graph: string,
    input: unknown,
    threadId: string,
    context: Record<string, unknown> | undefined,
    inspectOnly = false,
    onEvent?: (event: RunEvent) => void,
  ): Promise<RunResult> {
    const { graph: compiled, spec } = await load(graph);
    const { durable } = await saver();
    const usage = new UsageCollector();
    const config = {
      // The graph goes into each checkpoint's metadata (checkpointer.ts), so a thread remembers it.
      configurable: { thread_id: threadId, [GRAPH_KEY]: pathOf(graph) },
      ...(context ? { context } : {}),
    };
    const pausable = !durable && canPause(spec);
    let error: RunError | undefined =
      pausable && options.requireDurable
        ? {
            code: "not-durable",
            message: `graph \`${spec.name}\` can pause for a person, and its checkpoints would be kept in memory only`,
            hint: "use the sqlite checkpointer (the default), or drop --require-durable",
          }
        : undefined;
    try {
      if (!inspectOnly && !error) {
        if (!onEvent) await compiled.invoke(input as never, { ...config, callbacks: [usage] });
        else {
          const events = compiled.streamEvents(input as never, {
            ...config,
            callbacks: [usage],
            version: "v2",
          });
          const map = eventMapper(() => usage.usage);
          for await (const e of events) for (const ev of map(e)) onEvent(ev);
        }
      }
    } catch (e) {
      error = toRunError(e);
    }
    const snapshot = await compiled.getState(config);
    const interrupts: PendingInterrupt[] = snapshot.tasks.flatMap((task) =>
      (task.interrupts ?? []).map((i) => ({ id: String(i.id), node: task.name, value: i.value })),
    );
    const outputKeys = spec.output ?? Object.keys(spec.state);
    const values = (snapshot.values ?? {}) as Record<string, unknown>;
    const output = Object.fromEntries(
      outputKeys.filter((k) => k in values).map((k) => [k, values[k]]),
    );
    const warnings: string[] = [];
    if (pausable && !options.requireDurable) {
      warnings.push(
        `graph \`${spec.name}\` can pause for a person, and its checkpoints are kept in memory only: a paused run is lost when this process ends`,
      );
    }
    const next = [...snapshot.next];
    return {
      status: error ? "failed" : interrupts.length || next.length ? "interrupted" : "completed",
      output,
      threadId,
      checkpointId: snapshot.config?.configurable?.checkpoint_id as string | undefined,
      interrupts,
      next,
      usage: usage.usage,
      warnings,
      ...(error ? { error } : {}),
    };
  }

  /** Every thread in the checkpointer, newest checkpoint first, with the graph it ran. */
  async function threads(): Promise<ThreadInfo[]> {
    const { saver: cp } = await saver();
    const seen = new Map<string, ThreadInfo>();
    for await (const t of cp.list({})) {
      const id = String(t.config.configurable?.thread_id);
      if (seen.has(id) || t.config.configurable?.checkpoint_ns) continue;
      const graphPath = (t.metadata as Record<string, unknown> | undefined)?.[GRAPH_KEY];
      seen.set(id, {
        threadId: id,
        ...(typeof graphPath === "string" ? { graph: graphPath } : {}),
        checkpointId: String(t.config.configurable?.checkpoint_id),
        updatedAt: t.checkpoint.ts,
      });
    }
    return [...seen.values()].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1));
  }

  return {
    threads,
    /** The graph a thread ran (a spec path), when it was run by graphspec. */
    async graphOf(threadId: string): Promise<string | undefined> {
      return (await threads()).find((t) => t.threadId === threadId)?.graph;
    },
    /** Where a thread stands, as a RunResult, without running anything. */
    async inspect(threadId: string, graph?: string): Promise<RunResult | undefined> {
      const spec = graph ?? (await threads()).find((t) => t.threadId === threadId)?.graph;
      return spec === undefined ? undefined : execute(spec, undefined, threadId, undefined, true);
    },
    /** Deletes a thread's checkpoints. */
    async deleteThread(threadId: string): Promise<void> {
      await (await saver()).saver.deleteThread(threadId);
    },
    /** Deletes every thread whose id starts with `prefix` (a data deletion request); returns their ids. */
    async deleteThreads(prefix: string): Promise<string[]> {
      if (!prefix)
        throw new Error("a prefix is required: deleting every thread is not what a prefix means");
      const ids = (await threads()).map((t) => t.threadId).filter((id) => id.startsWith(prefix));
      const { saver: cp } = await saver();
      for (const id of ids) await cp.deleteThread(id);
      return ids;
    },
    /**
     * A run as its events, in order, ending with exactly one final event (`completed`,
     * `interrupted` or `failed`) carrying the RunResult. With `resume`, answers a paused run.
     */
    async *stream(
      graph: string,
      opts: RunOptions & { resume?: unknown; threadId?: string } = {},
    ): AsyncGenerator<RunEvent> {
      const threadId = opts.threadId ?? randomUUID();
      yield { type: "run_start", threadId, graph };
      const queue: RunEvent[] = [];
      let wake: (() => void) | undefined;
      const push = (e: RunEvent) => {
        queue.push(e);
        wake?.();
      };
      const input =
        opts.resume !== undefined ? new Command({ resume: opts.resume }) : (opts.input ?? {});
      let finished = false;
      let failure: unknown;
      execute(graph, input, threadId, opts.context, false, push)
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
    run(graph: string, opts: RunOptions = {}): Promise<RunResult> {
      return execute(graph, opts.input ?? {}, opts.threadId ?? randomUUID(), opts.context);
    },
    /** Answers a paused run, or continues a stopped one from its last checkpoint. */
    async resume(graph: string, opts: ResumeOptions): Promise<RunResult> {
      const { graph: compiled } = await load(graph);
      const before = await compiled.getState({ configurable: { thread_id: opts.threadId } });
      const pending = before.next.length > 0 || before.tasks.some((t) => t.interrupts?.length);
      if (!before.config?.configurable?.checkpoint_id || !pending) {
        const result = await execute(graph, undefined, opts.threadId, opts.context, true);
        return {
          ...result,
          status: "failed",
          error: {
            code: "nothing-to-resume",
            message: before.config?.configurable?.checkpoint_id
              ? `thread \`${opts.threadId}\` has nothing to resume: its run has completed`
              : `there is no thread \`${opts.threadId}\` of graph \`${graph}\``,
            hint: "start a new run with `graphspec run`, or check the thread id",
          },
        };
      }
      const input = opts.value === undefined ? null : new Command({ resume: opts.value });
      return execute(graph, input, opts.threadId, opts.context);
    },
  };
}

export type Executor = ReturnType<typeof createExecutor>;
