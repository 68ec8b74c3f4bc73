/**
 * What the executor does with a thread besides running it: list, read (`inspect`, `state`,
 * `history`, its graph and context), write (`updateState`, with the thread claimed like a run and
 * what is written masked like a run's writes) and delete threads.
 */
import type { StateSnapshot } from "@langchain/langgraph";
import { withheldSecrets } from "../compile/run-context.js";
import { atCheckpoint, missingCheckpoint } from "./checkpoint-at.js";
import { GRAPH_KEY } from "./checkpointer.js";
import { toRunError } from "./classify-error.js";
import type { Execute } from "./execute-run.js";
import type { Executor, ThreadState } from "./executor-api.js";
import type { GraphLoader } from "./graph-loader.js";
import type { Persistence } from "./persistence.js";
import { rememberedContext, rememberedKeys } from "./remembered-keys.js";
import type { RunResult } from "./result.js";
import { runSecrets } from "./run-secrets.js";
import { givenRefusal, type SizeLimits } from "./size-limits.js";
import { failureOf } from "./step-failure.js";
import type { ThreadGraphs } from "./thread-graph.js";
import { graphForThread, onThread, refused } from "./thread-guard.js";
import { threadSnapshot } from "./thread-snapshot.js";
import type { ThreadIndex } from "./threads.js";

/** What LangGraph's `updateState` takes as `asNode` besides the graph's nodes (`__start__` is one). */
const LANGGRAPH_UPDATE_NODES = new Set(["__end__", "__copy__", "__input__"]);

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
    // The node's update, as LangGraph's own server gives it: the run view shows it per step.
    ...(t.result !== undefined ? { result: t.result } : {}),
    ...(t.error !== undefined ? { error: errorMessage(t.error) } : {}),
  }));

/** A failed task's error as LangGraph keeps it (an Error, or its `{ message, name }`), in one line of text. */
const errorMessage = (e: unknown): string => {
  const message = (e as { message?: unknown } | null)?.message;
  return typeof message === "string" ? message : String(e);
};

/** What thread operations need of the executor's other parts. */
export interface ThreadParts {
  saver: Persistence["saver"];
  graphs: Pick<GraphLoader, "load" | "pathOf">;
  /** The threads the checkpointer keeps (threads.ts). */
  index: ThreadIndex;
  /** Which graph a thread belongs to (thread-graph.ts). */
  owners: ThreadGraphs;
  execute: Execute;
  limits: Required<SizeLimits>;
  /** The environment's secret-looking variables: masked in what `updateState` writes. */
  envSecrets: readonly string[];
}

export type ThreadOperations = Omit<Executor, "run" | "resume" | "stream" | "close">;

export function threadOperations(parts: ThreadParts): ThreadOperations {
  const {
    saver,
    graphs: { load, pathOf },
    index,
    owners,
    execute,
    limits,
    envSecrets,
  } = parts;

  /** The graph a thread ran, when it is a spec inside the project (never a path elsewhere). */
  const graphOf = async (threadId: string): Promise<string | undefined> => {
    const stored = await owners.storedGraph(threadId);
    return stored && "path" in stored ? stored.path : undefined;
  };

  return {
    threads: index.threads,
    threadsSince: index.threadsSince,
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
      const { saver: cp } = await saver();
      for await (const s of compiled.getStateHistory(config, paging)) {
        const meta = (s.metadata ?? {}) as { step?: number; source?: string };
        // Why the step after it failed, kept with the checkpoint (step-failure.ts).
        const error = await failureOf(cp, s);
        entries.push({
          ...(error ? { error } : {}),
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
      const { saver: cp } = await saver();
      const read =
        asked === undefined
          ? await threadSnapshot(compiled, cp, threadId)
          : { snapshot: await compiled.getState({ configurable: atCheckpoint(threadId, asked) }) };
      const s = read.snapshot;
      // Why the step after it failed: writes that cannot be applied, or a failed task's kept error.
      const error = ("failure" in read ? read.failure : undefined) ?? (await failureOf(cp, s));
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
        ...(error ? { error } : {}),
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
        // LangGraph refuses an unknown node with an error read as a failed write: say what it is.
        const nodes = Object.keys(compiled.nodes).filter((n) => !n.startsWith("__"));
        if (
          opts.asNode !== undefined &&
          !(opts.asNode in compiled.nodes) &&
          !LANGGRAPH_UPDATE_NODES.has(opts.asNode)
        )
          return refused(threadId, {
            code: "invalid-input",
            phase: "input",
            field: "asNode",
            message: `\`asNode\` names no node of this graph: \`${opts.asNode}\``,
            hint: `name one of its nodes (${nodes.map((n) => `\`${n}\``).join(", ")}), or leave it out to write as the node that ran last`,
          });
        const from = opts.checkpointId;
        if (from !== undefined) {
          const missing = await missingCheckpoint((await saver()).saver, threadId, from);
          if (missing) return refused(threadId, missing);
        }
        // The context the thread's runs had at that checkpoint (remembered-keys.ts says why),
        // kept with the new checkpoint as the model and tool allowlist are.
        const remembered = await rememberedKeys((await saver()).saver, threadId, from);
        const context = rememberedContext(remembered);
        // What is written is masked as a run's writes are (secret-guard.ts, through `configurable`).
        const secrets = runSecrets(specified, envSecrets, context);
        const config = {
          configurable: {
            thread_id: threadId,
            // A fork: the new checkpoint's parent is `from`, the thread's latest moves to it.
            ...(from !== undefined ? atCheckpoint(threadId, from) : {}),
            [GRAPH_KEY]: found.path,
            ...remembered,
            ...secrets.configurable,
          },
          // Its secrets were never kept: the update runs edges only, where none is in scope.
          context: withheldSecrets(context ?? {}),
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
  };
}
