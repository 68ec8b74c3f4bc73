/**
 * The executor as its callers see it — the one interface that `createExecutor` implements, the
 * package entry forwards and docs/executor.md documents. Types only, so the package entry can
 * promise an `Executor` without loading LangGraph.
 */
import type { RunStandIn } from "../compile/models/run-stand-in.js";
import type { CompileOptions } from "../compile/options.js";
import type { CheckpointerChoice, CheckpointerOptions } from "./checkpointer.js";
import type { RunEvent } from "./events.js";
import type { GraphStreamRequest } from "./graph-chunks.js";
import type { RunLimits } from "./limits.js";
import type { RunError, RunResult } from "./result.js";
import type { SizeLimits } from "./size-limits.js";
import type { StoreChoice } from "./store.js";

export interface ExecutorOptions
  extends Pick<
      CompileOptions,
      "scripts" | "models" | "tools" | "env" | "offline" | "recording" | "modelTimeoutMs"
    >,
    CheckpointerOptions,
    SizeLimits {
  /**
   * Where graphs named without a path live. Default `graphs`. Its project root (the nearest
   * folder up from it with package.json, .git or graphspec.config.json) is the executor's project:
   * a spec a thread names in its checkpoints is loaded only from inside it.
   */
  dir?: string;
  /** Default `sqlite` (`.graphspec/state.db`); `postgres` uses `databaseUrl` or DATABASE_URL. */
  checkpointer?: CheckpointerChoice;
  /** Refuse to run a graph that can pause for a person when checkpoints are not durable. */
  requireDurable?: boolean;
  /**
   * LangGraph's store (cross-thread memory) for nodes and tools (`runtime.store`): `memory`,
   * `postgres` (on `databaseUrl` / DATABASE_URL) or any LangGraph store. Default: none.
   */
  store?: StoreChoice;
  /**
   * The stand-ins a run may choose by id (`RunChoiceOptions.standIn`): `graphspec dev` offers its
   * project's fixture tests and recordings (docs/dev.md). Without it, a run choosing one fails
   * with `invalid-run-option`.
   */
  standIns?: StandInCatalog;
  /**
   * More values to mask in every run, besides the environment's secret-looking variables: in
   * results, events, checkpoints and errors (the CLI passes the secret values of the project's .env).
   */
  secrets?: readonly string[];
}

/** A stand-in a graph's runs may choose (docs/dev.md, "Standing in for models"). */
export interface StandInOffer {
  /** What a run names to choose it: `graphs/x.test.yaml#test name`, or a recording's path. */
  id: string;
  /** A fixture test's scripts, or a recording of provider exchanges. */
  kind: "scripts" | "recording";
  /** The fixture or recording file, relative to the project. */
  file: string;
  /** The fixture test's name. */
  test?: string;
}

/** The stand-ins of a project's graphs, by spec file (absolute path). */
export interface StandInCatalog {
  /**
   * What answers for the models of a run that chooses no stand-in: their providers, or the scripts
   * or recording the executor itself was given (`graphspec dev --scripts` / `--replay`).
   */
  withoutOne: "provider" | "scripts" | "recording";
  offers(specPath: string): Promise<StandInOffer[]>;
  /** The stand-in offered as `id` for the spec, or undefined when none is. */
  choose(specPath: string, id: string): Promise<RunStandIn | undefined>;
}

/**
 * What a caller chooses per run, as plain data (a server passes its client's
 * `configurable.model` here). Checked before anything runs or is stored: a bad choice fails the
 * run with `model-not-allowed` or `invalid-run-option`.
 */
export interface RunChoiceOptions {
  /**
   * The model to run with: a `models:` entry named in some entry's `allow` list (or that entry
   * itself), by name or by its `provider:name`. It replaces each entry that allows it; without
   * it, every node runs its own model.
   */
  model?: string;
  /**
   * What answers for the spec's models in this run instead of their providers: the id of a stand-in
   * the executor's `standIns` offers for the graph (a fixture test's scripts, a recording).
   */
  standIn?: string;
  /** The most super-steps this run may take, in place of the spec's `limits.recursion` (1–10,000). */
  recursionLimit?: number;
  /** Pause before these nodes (`"*"`: every node), in place of the spec's `interrupts.before`. */
  interruptBefore?: string[] | "*";
  /** Pause after these nodes (`"*"`: every node), in place of the spec's `interrupts.after`. */
  interruptAfter?: string[] | "*";
}

export interface RunOptions extends RunLimits, RunChoiceOptions {
  input?: unknown;
  threadId?: string;
  /**
   * The run's context. It is stored with the thread (secret-looking keys and keys the spec
   * declares `secret: true` left out), so a resume or a later run on the thread gets it again;
   * keys given here replace the stored ones.
   */
  context?: Record<string, unknown>;
  /**
   * The tools the run's models may call, by name (a server client's `configurable.toolIds`). A call
   * of any other tool does not run: the model gets an error tool message with `artifact.errorCode`
   * `"policy_denied"`, and a `tool_denied` event says so. Kept with the thread: a resume or later
   * run that gives none is held to it. Default: every tool the spec gives its nodes.
   */
  allowedTools?: string[];
}

export interface ResumeOptions extends RunLimits, RunChoiceOptions {
  threadId: string;
  /**
   * The answer to the pending interrupt (an id map when several are pending; `null` is an answer
   * too); without it, the run continues from its last checkpoint.
   */
  value?: unknown;
  /** Added to (and replacing keys of) the context stored with the thread. */
  context?: Record<string, unknown>;
  /** The tools the resumed run's models may call (see RunOptions); default: the thread's list. */
  allowedTools?: string[];
  /**
   * LangGraph's `Command({ goto })` with the resume (or alone): these nodes run next, besides what
   * was pending. Each must be a node of the graph.
   */
  goto?: string | string[];
  /** LangGraph's `Command({ update })`: written to these channels (through their reducers) first. */
  update?: Record<string, unknown>;
}

export interface StreamOptions extends RunOptions {
  /** With `threadId`: the answer to the pending interrupt (`null` is an answer too). */
  resume?: unknown;
  /** With `threadId`: LangGraph's `Command({ goto })`, as in ResumeOptions. */
  goto?: string | string[];
  /** With `threadId`: LangGraph's `Command({ update })`, as in ResumeOptions. */
  update?: Record<string, unknown>;
  /**
   * With `threadId` and no `resume`: go on from the last checkpoint (a stopped run); on a thread
   * whose run has ended, run nothing and complete with its state (LangGraph's `invoke(null)`).
   */
  continue?: boolean;
  /**
   * LangGraph's own stream output to report besides the run events, as plain data (messages as
   * `{ type, content }`, no configurable keys but the thread's position): chunks of these stream
   * modes as `graph_chunk` events, raw `streamEvents` as `graph_event` events. The server's
   * `streamMode` is built on it.
   */
  graphStream?: GraphStreamRequest;
  /**
   * With `threadId`: run from this checkpoint of the thread instead of its latest (LangGraph's
   * time travel): `continue` replays from it, `input` is new input on its state, `resume` answers
   * its interrupt. The run's checkpoints are a new branch whose first parent is this one. A
   * checkpoint the thread does not have fails the run with `checkpoint-not-found`; nothing runs.
   */
  checkpointId?: string;
}

/** One checkpoint of a thread, as `history` lists them (newest first). */
export interface HistoryEntry {
  checkpointId: string;
  /** LangGraph's step number: -1 for the input, then one per superstep. */
  step: number;
  /** `input`, `loop` (a step of the run), `update` or `fork`. */
  source: string;
  createdAt: string | undefined;
  /** The nodes that ran (or were to run) after this checkpoint. */
  next: string[];
  values: Record<string, unknown>;
}

/** A checkpoint with its parent and the tasks to run after it (their interrupts): `state` gives the latest. */
export interface ThreadState extends HistoryEntry {
  parentCheckpointId: string | undefined;
  tasks: {
    id: string;
    name: string;
    /** `response_schema`: the JSON Schema the answer must match (an `interrupt` node's `schema`). */
    interrupts: { id: string; value: unknown; response_schema?: unknown }[];
    /** What the task wrote (`{ channel: value }`), once it has finished: its node's update. */
    result?: unknown;
    /** The task ran and failed: its error's message (LangGraph keeps it with the checkpoint). */
    error?: string;
  }[];
  /** The step after this checkpoint failed: the run's error, as the run returned it (step-failure.ts). */
  error?: RunError;
}

export interface ThreadInfo {
  threadId: string;
  /** The spec file the thread ran, as stored (not checked: `graphOf` gives only specs inside the project). */
  graph?: string;
  checkpointId: string;
  /** When its latest checkpoint was written (ISO time). */
  updatedAt: string;
}

/**
 * Runs graphs by name (`graphs/NAME.yaml`) or path on threads. Everything that happens while
 * running is in the RunResult; a spec that cannot be loaded or compiled throws (SpecError,
 * CompileError), and so does a checkpointer that cannot be opened (CheckpointerError).
 */
export interface Executor {
  /** Starts a run on a new thread (or continues `threadId` with new input). */
  run(graph: string, options?: RunOptions): Promise<RunResult>;
  /** Answers a paused run, or continues a stopped one from its last checkpoint. */
  resume(graph: string, options: ResumeOptions): Promise<RunResult>;
  /**
   * A run as its events, in order, ending with exactly one final event (`completed`,
   * `interrupted` or `failed`) carrying the RunResult.
   */
  stream(graph: string, options?: StreamOptions): AsyncGenerator<RunEvent>;
  /**
   * Where a thread stands, as a RunResult, without running anything — `failed` with its error when
   * its last step failed; undefined for an unknown thread. Without `graph`, the thread's own spec
   * (refused, as a failed result, when it is not a spec inside the project).
   */
  inspect(threadId: string, graph?: string): Promise<RunResult | undefined>;
  /**
   * A thread's checkpoints, newest first, each with its parent and its tasks (with their
   * interrupts); undefined for an unknown thread (or, without `graph`, one whose spec is not
   * inside the project).
   */
  history(
    threadId: string,
    graph?: string,
    options?: {
      /** At most this many checkpoints. */
      limit?: number;
      /** Only checkpoints older than this one of the thread (paging); none when the thread lacks it. */
      before?: string;
      /** Only checkpoints whose metadata has these values (`{ source: "input" }`). */
      filter?: Record<string, unknown>;
    },
  ): Promise<ThreadState[] | undefined>;
  /**
   * Where a thread stands — all its values, its next nodes and their interrupts — read from its
   * latest checkpoint, or with `checkpointId` from that one checkpoint of the thread (one read, not
   * the history); undefined for an unknown thread or checkpoint (or, without `graph`, a thread whose
   * spec is not inside the project).
   */
  state(
    threadId: string,
    graph?: string,
    options?: { checkpointId?: string },
  ): Promise<ThreadState | undefined>;
  /**
   * Writes values to a thread as if node `asNode` had (LangGraph's `updateState`), with the thread
   * claimed like a run; the new checkpoint's id, or a failed RunResult when the thread is busy,
   * belongs to another graph, or does not exist.
   */
  updateState(
    threadId: string,
    values: Record<string, unknown>,
    options?: {
      graph?: string;
      asNode?: string;
      /**
       * Write on top of this checkpoint of the thread instead of its latest: a fork, whose new
       * checkpoint has it as parent. One the thread does not have is `checkpoint-not-found`.
       */
      checkpointId?: string;
    },
  ): Promise<{ checkpointId: string } | RunResult>;
  /** Every thread, newest checkpoint first, with the graph it ran (one query per store; no checkpoint is loaded). */
  threads(): Promise<ThreadInfo[]>;
  /**
   * The threads with a root checkpoint written after `cursor` (every thread when undefined) —
   * by this process or another (`graphspec run --thread` on the same SQLite file) — and the
   * cursor to ask from next: a list of threads kept elsewhere (the server's records) is brought up
   * to date reading only what is new; `touched`: the threads with other writes since (a failure
   * kept, an interrupt's answer), whose status may have changed. The cursor is undefined when the checkpointer cannot say
   * what is new (memory, PostgreSQL, a checkpointer given): the list is then every thread, once.
   */
  threadsSince(
    cursor: string | undefined,
  ): Promise<{ threads: ThreadInfo[]; touched: string[]; cursor: string | undefined }>;
  /** The graph a thread ran (a spec path), when it was run by graphspec and the spec is inside the project. */
  graphOf(threadId: string): Promise<string | undefined>;
  /** The context stored with a thread (secret keys are never stored). */
  contextOf(threadId: string): Promise<Record<string, unknown> | undefined>;
  /** Deletes a thread's checkpoints; false when there was no such thread. */
  deleteThread(threadId: string): Promise<boolean>;
  /** Deletes every thread whose id starts with `prefix`; returns their ids. */
  deleteThreads(prefix: string): Promise<string[]>;
  /**
   * Waits for the calls in flight, then releases the checkpointer's connections (a PostgreSQL pool
   * keeps the process alive) and closes the MCP servers' connections (a stdio server's process
   * ends). Every call after it rejects with ExecutorClosedError.
   */
  close(): Promise<void>;
}
