/**
 * One run of a graph on a thread, start to end: its config (thread, checkpoint, chosen model,
 * context, tool allowlist, secrets to mask), the refusals checked before anything runs, the run
 * itself (invoked, or streamed as events), and the RunResult read back from the thread — status,
 * output, interrupts, next nodes, summed token usage, warnings, and a structured error instead of
 * a thrown one. With `inspectOnly`, nothing runs: the result says where the thread stands.
 */
import { randomUUID } from "node:crypto";
import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch";
import { wantEventLoopTurns } from "../compile/event-loop-turn.js";
import { STAND_IN_KEY } from "../compile/models/run-stand-in.js";
import { refuseRunChoices } from "../compile/run-choices.js";
import { usageConfigurable } from "../compile/run-usage.js";
import { canPause } from "../compile/spec-graph.js";
import { TOOL_IDS_KEY } from "../compile/tool-policy.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import { atCheckpoint } from "./checkpoint-at.js";
import { ALLOWED_TOOLS_KEY, MODEL_KEY } from "./checkpoint-keys.js";
import { CONTEXT_KEY, GRAPH_KEY } from "./checkpointer.js";
import { chosenStandIn } from "./chosen-stand-in.js";
import { toRunError } from "./classify-error.js";
import { eventMapper, type RunEvent, WRITER_EVENT } from "./events.js";
import type { ExecutorOptions, RunChoiceOptions } from "./executor-api.js";
import {
  type GraphStreamRequest,
  plainChunk,
  plainEvent,
  throughStream,
  writerNamespace,
} from "./graph-chunks.js";
import type { GraphLoader, Loaded } from "./graph-loader.js";
import { guardRun, type RunLimits } from "./limits.js";
import { NodeCallbacks } from "./node-callbacks.js";
import type { Persistence } from "./persistence.js";
import type { PendingInterrupt, RunError, RunResult } from "./result.js";
import { runSecrets } from "./run-secrets.js";
import { scrubbedEvents } from "./secret-events.js";
import { givenRefusal, type SizeLimits } from "./size-limits.js";
import { failureOf, keepFailure } from "./step-failure.js";
import { threadSnapshot } from "./thread-snapshot.js";
import { UsageCollector } from "./usage.js";

/** One call of `execute`: what to run, on which thread, within which limits. */
export interface Execution extends RunLimits {
  graph: string;
  /** The run's model, recursion limit and breakpoints (checked before anything runs). */
  choices?: RunChoiceOptions;
  input: unknown;
  threadId: string;
  context: Record<string, unknown> | undefined;
  /** The tools the run's models may call (tool-policy.ts); undefined: every tool. */
  allowedTools?: unknown;
  /** Only read where the thread stands. */
  inspectOnly?: boolean;
  /** The graph's version the run took when it started (else the newest). */
  loaded?: Loaded;
  onEvent?: (event: RunEvent) => void;
  /** With `onEvent`: LangGraph's own stream output to report too. */
  graphStream?: GraphStreamRequest;
  /** Run from this checkpoint of the thread (checked to exist), not its latest. */
  checkpointId?: string;
}

/** A run's model, limit or breakpoints the spec refuses, as the run's error (nothing runs). */
const choiceRefusal = (spec: GraphSpec, choices: RunChoiceOptions): RunError | undefined => {
  const refusal = refuseRunChoices(spec, choices);
  return refusal && toRunError(refusal);
};

/** What a node or tool writes with `runtime.writer`: a custom event of the run's stream. */
const customWriter = (chunk: unknown): void => {
  dispatchCustomEvent(WRITER_EVENT, chunk).catch(() => {
    // Outside a run's callbacks there is nobody to tell.
  });
};

/** A tool allowlist that is not a list of names is refused before anything runs. */
function allowlistRefusal(allowed: unknown): RunError | undefined {
  if (
    allowed === undefined ||
    (Array.isArray(allowed) && allowed.every((t) => typeof t === "string"))
  )
    return undefined;
  return {
    code: "invalid-input",
    phase: "input",
    field: "allowedTools",
    message: "`allowedTools` must be a list of tool names",
    hint: 'give the names of the tools the run may use, e.g. ["lookup_ticket"], or leave it out',
  };
}

/** Runs (or with `inspectOnly`, only reads) a thread and reports where it stands. */
export type Execute = (run: Execution) => Promise<RunResult>;

/** What running needs of the executor's other parts. */
export interface ExecutionParts {
  options: Pick<ExecutorOptions, "requireDurable" | "standIns">;
  limits: Required<SizeLimits>;
  saver: Persistence["saver"];
  graphs: Pick<GraphLoader, "load" | "pathOf">;
  /** The environment's secret-looking variables: masked in every run (run-secrets.ts). */
  envSecrets: readonly string[];
}

/** The executor's `execute`: runs (or only reads) a thread and reports where it stands. */
export function executeRun(parts: ExecutionParts): Execute {
  const {
    options,
    limits,
    saver,
    graphs: { load, pathOf },
    envSecrets,
  } = parts;

  /** Runs (or with `inspectOnly`, only reads) a thread and reports where it stands. */
  async function execute(run: Execution): Promise<RunResult> {
    const {
      graph,
      input,
      threadId,
      context,
      allowedTools,
      inspectOnly = false,
      onEvent,
      choices = {},
      graphStream,
      checkpointId,
    } = run;
    const {
      graph: compiled,
      spec,
      checkContext,
      secrets: specified,
    } = run.loaded ?? (await load(graph));
    // Masked in the result, the events and the checkpoints (secret-guard.ts, through `configurable`).
    const secrets = runSecrets(specified, envSecrets, context);
    const { durable } = await saver();
    const guard = guardRun(run);
    const usage = new UsageCollector((u) => guard.afterModelCall(u));
    // A fixture's scripts or a recording answering for the models in this run only (dev's page).
    const chosen = inspectOnly
      ? {}
      : await chosenStandIn(options.standIns, pathOf(graph), choices.standIn);
    const config = {
      // Graph and context go into each checkpoint's metadata (checkpointer.ts): a thread remembers them.
      configurable: {
        thread_id: threadId,
        // From an earlier checkpoint: LangGraph runs from there, its checkpoints a new branch.
        ...(checkpointId !== undefined ? atCheckpoint(threadId, checkpointId) : {}),
        // The chosen model is stored with the thread (checkpointer.ts): a resume keeps it.
        ...(choices.model !== undefined
          ? { model: choices.model, [MODEL_KEY]: choices.model }
          : {}),
        [GRAPH_KEY]: pathOf(graph),
        ...(context ? { [CONTEXT_KEY]: secrets.storedContext } : {}),
        // Read by the tools node and agents; kept with the thread for a later resume.
        ...(allowedTools !== undefined
          ? { [TOOL_IDS_KEY]: allowedTools, [ALLOWED_TOOLS_KEY]: allowedTools }
          : {}),
        ...secrets.configurable,
        ...(chosen.standIn ? { [STAND_IN_KEY]: chosen.standIn } : {}),
      },
      ...(context ? { context } : {}),
      ...(choices.recursionLimit !== undefined ? { recursionLimit: choices.recursionLimit } : {}),
      ...(choices.interruptBefore !== undefined
        ? { interruptBefore: choices.interruptBefore }
        : {}),
      ...(choices.interruptAfter !== undefined ? { interruptAfter: choices.interruptAfter } : {}),
      signal: guard.signal,
      // Each step's checkpoint is stored (and its size checked: checkpoint-bounds.ts) before the
      // next step starts, so a state over `maxStateBytes` stops the run at that step. LangGraph's
      // default ("async") stores it while the next step runs and reports a failure only when the
      // run ends: a runaway loop went on computing, with its side effects, until then.
      durability: "sync" as const,
    };
    const pausable = !durable && canPause(compiled);
    let error: RunError | undefined =
      (inspectOnly ? undefined : givenRefusal(input, context, limits)) ??
      chosen.error ??
      (inspectOnly ? undefined : choiceRefusal(spec, choices)) ??
      (inspectOnly ? undefined : allowlistRefusal(allowedTools)) ??
      (pausable && options.requireDurable
        ? {
            code: "not-durable",
            phase: "run",
            message: `graph \`${spec.name}\` can pause for a person, and its checkpoints would be kept in memory only`,
            hint: "use the sqlite or postgres checkpointer (sqlite is the default), or drop --require-durable",
          }
        : undefined);
    let thrown: unknown;
    // A deadline's timer and a cancel are seen between busy steps (event-loop-turn.ts).
    const turnsDone = wantEventLoopTurns();
    try {
      if (!inspectOnly && !error) {
        checkContext(context);
        // The usage handler goes to the nodes that may call a model (run-usage.ts), not to every
        // runnable of the graph; the streaming paths below have graph-wide callbacks anyway.
        if (!onEvent)
          await compiled.invoke(input as never, {
            ...config,
            configurable: { ...config.configurable, ...usageConfigurable(usage) },
          });
        else if (throughStream(graphStream)) {
          // The modes' chunks and the nodes' starts and ends only: LangGraph's `stream()`, the
          // nodes heard from its callbacks (node-callbacks.ts) — no `streamEvents` tracer.
          const modes = graphStream?.modes ?? [];
          const subgraphs = Boolean(graphStream?.subgraphs && modes.length);
          const emit = scrubbedEvents(onEvent, secrets.scrub);
          const chunks = await compiled.stream(input as never, {
            ...config,
            // As on the other path: `runtime.writer` output is a LangChain custom event.
            ...({ writer: customWriter } as object),
            callbacks: [usage, new NodeCallbacks(emit)],
            streamMode: [...modes],
            subgraphs,
          });
          for await (const raw of chunks as AsyncIterable<unknown[]>) {
            if (!modes.length) continue;
            // [namespace, mode, chunk] with subgraphs, [mode, chunk] without.
            const [ns, mode, chunk] = subgraphs ? raw : [[], ...raw];
            emit({
              type: "graph_chunk",
              mode: String(mode),
              namespace: Array.isArray(ns) ? ns.map(String) : [],
              data: plainChunk(String(mode), chunk),
            });
          }
          emit.flush();
        } else {
          // `runtime.writer` output becomes a custom event the mapper reports with its node
          // (LangGraph's writer option is not in streamEvents' type, but it is read).
          const withWriter = { writer: customWriter } as object;
          // The root run's id: its `on_chain_stream` events carry the stream modes' chunks.
          const runId = randomUUID();
          const modes = graphStream?.modes ?? [];
          const subgraphs = Boolean(graphStream?.subgraphs && modes.length);
          const events = compiled.streamEvents(input as never, {
            ...config,
            ...withWriter,
            callbacks: [usage],
            version: "v2",
            runId,
            ...(modes.length ? { streamMode: [...modes], subgraphs } : {}),
          });
          const map = eventMapper(() => usage.usage);
          const emit = scrubbedEvents(onEvent, secrets.scrub);
          for await (const e of events) {
            if (graphStream?.events) emit({ type: "graph_event", event: plainEvent(e) });
            if (modes.length && e.event === "on_chain_stream" && e.run_id === runId) {
              // [namespace, mode, chunk] with subgraphs, [mode, chunk] without.
              const raw = e.data?.chunk as unknown[];
              const [ns, mode, chunk] = subgraphs ? raw : [[], ...raw];
              emit({
                type: "graph_chunk",
                mode: String(mode),
                namespace: Array.isArray(ns) ? ns.map(String) : [],
                data: plainChunk(String(mode), chunk),
              });
            }
            for (const ev of map(e)) {
              emit(ev);
              // `runtime.writer` goes to graphspec's custom event (customWriter), not to
              // LangGraph's stream: the `custom` mode's chunks are made from it, as LangGraph
              // makes them — the writing node's graph as namespace, a subgraph's only with
              // `subgraphs`.
              if (ev.type !== "custom" || ev.name !== undefined || !modes.includes("custom"))
                continue;
              const namespace = writerNamespace(e);
              if (namespace.length && !subgraphs) continue;
              emit({
                type: "graph_chunk",
                mode: "custom",
                namespace,
                data: plainChunk("custom", ev.data),
              });
            }
          }
          emit.flush();
        }
      }
    } catch (e) {
      thrown = e;
    } finally {
      turnsDone();
      guard.dispose();
    }
    const { saver: cp } = await saver();
    // A step whose writes collide cannot be read back applied: `failure` says why (thread-snapshot.ts).
    const { snapshot, failure } = await threadSnapshot(compiled, cp, threadId);
    if (thrown !== undefined) {
      error =
        guard.stopped() ?? failure ?? toRunError(thrown, snapshot.tasks.find((t) => t.error)?.name);
    } else if (inspectOnly && !error) error = failure ?? (await failureOf(cp, snapshot));
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
    // No secret leaves in an error or a warning (output and interrupts are read back masked).
    const scrub = secrets.scrub;
    // A step that failed keeps its error with the thread: reading the thread later says why.
    if (thrown !== undefined && error)
      await keepFailure(cp, snapshot, scrub(error)).catch(() => {});
    return {
      status: error ? "failed" : interrupts.length || next.length ? "interrupted" : "completed",
      output,
      threadId,
      checkpointId: snapshot.config?.configurable?.checkpoint_id as string | undefined,
      interrupts,
      next,
      usage: usage.usage,
      warnings: scrub(warnings),
      ...(error ? { error: scrub(error) } : {}),
    };
  }
  return execute;
}
