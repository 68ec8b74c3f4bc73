/**
 * Runs: those this server process drives — each run's server-sent events kept from the first (so
 * a client that disconnected, or a second client, can `join` or follow it from the start) — and
 * their records in the server store (server-store.ts), where other replicas see them. A run is
 * driven here, not by the request that started it: a client that goes away mid-stream does not
 * stop it. With a shared store, background runs are queued there and a worker takes them one at
 * a time per free slot (run-queue.ts); a run another replica drives is followed by polling its
 * record and its thread's checkpoints (follow-remote.ts). Runs' events are kept within bounds of
 * bytes, per run and in all (event-retention.ts); finished runs are forgotten past a count, oldest
 * first; their threads stay in the checkpointer.
 */
import { randomUUID } from "node:crypto";
import { CpuTurns, inTurn, withTurns } from "../compile/cpu-turns.js";
import type { RunEvent } from "../run/events.js";
import type { Executor, StreamOptions } from "../run/executor-api.js";
import type { RunError, RunResult } from "../run/result.js";
import { ApiError, refusalError, serverStopping } from "./api-error.js";
import { clientFailure, clientText } from "./client-text.js";
import {
  EventLedger,
  type EventRetention,
  noEvents,
  type RetainedEvents,
} from "./event-retention.js";
import { runFailure } from "./run-failure.js";
import type {
  MultitaskStrategy,
  QueuedRequest,
  RunRecord,
  RunStatus,
  ServerStore,
} from "./server-store.js";
import { DEFAULT_TENANT_CAPS, tenantKey, tooManyRunning } from "./tenant-caps.js";

export type { RunRecord, RunStatus };

import { type ApiStreamMode, graphStreamFor, type SseEvent, sseMapper } from "./stream-modes.js";

export interface LiveRun {
  record: RunRecord;
  /** The thread id in the checkpointer (the tenant's scope in front of the client's id). */
  storedThreadId: string;
  /** The spec it runs (the catalog's path): its thread's state is read with it, not looked up. */
  graphPath: string;
  /** The tenant that started it (undefined without authentication). */
  tenant: string | undefined;
  /** Its events so far, within the retention bounds: the oldest may have been dropped. */
  events: RetainedEvents;
  finished: boolean;
  result: RunResult | undefined;
  /** Why a run without a result failed (its spec could not be loaded or compiled). */
  thrown: RunError | undefined;
  /** Wakes those following the run (a new event, or its end). */
  listeners: Set<() => void>;
  abort: AbortController;
  done: Promise<void>;
  /** A background run: what to queue again if this replica stops before it ends. */
  request: QueuedRequest | undefined;
  /** Set when this replica stops: a cancelled background run goes back to the queue. */
  handBack: boolean;
}

export interface StartRun {
  exec: Executor;
  graphPath: string;
  assistantId: string;
  storedThreadId: string;
  clientThreadId: string;
  tenant: string | undefined;
  options: Omit<StreamOptions, "threadId" | "graphStream" | "signal">;
  modes: ApiStreamMode[];
  subgraphs: boolean;
  metadata: Record<string, unknown>;
  /** Recorded with the run (the thread's run going on was stopped first for `interrupt`). */
  multitaskStrategy?: MultitaskStrategy;
  /**
   * A run taken from the queue: its id and record exist already; `request` is what to queue
   * again should this replica stop before it ends (none: it ends `interrupted` then).
   */
  queued?: {
    runId: string;
    createdAt: string;
    request: QueuedRequest | undefined;
    /**
     * What to queue again if its thread turns out busy when it is taken (a run started on it
     * another way, not recorded yet): it waits its turn again, as `enqueue` promises.
     */
    whenBusy: QueuedRequest;
  };
  /** What `refuseOverCap` read for this request: not read again when nothing changed since. */
  capReading?: CapReading | undefined;
}

/** A tenant's running count as `refuseOverCap` read it, and when (`RunRegistry.capEpoch`). */
export interface CapReading {
  recorded: number;
  epoch: number;
}

/** How many finished runs are kept (with their events) for `get`, `list` and `join`. */
const KEPT_FINISHED = 1000;

const STATUS_OF: Record<RunResult["status"], RunStatus> = {
  completed: "success",
  interrupted: "interrupted",
  failed: "error",
};

/**
 * Replaces the stored thread id by the client's wherever LangGraph's data names it. What holds no
 * such id is returned as it is, not copied: an event's data is the executor's own plain copy, and
 * copying every value of every event (a state of 60,000 strings, each step) was garbage for the
 * collector to pause the server's thread over.
 */
function unscoped(value: unknown, stored: string, client: string, depth = 0): unknown {
  if (stored === client || depth > 64 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (v === null || typeof v !== "object") continue;
      const u = unscoped(v, stored, client, depth + 1);
      if (u === v) continue;
      out ??= value.slice();
      out[i] = u;
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value)) {
    const u =
      k === "thread_id" && v === stored
        ? client
        : v !== null && typeof v === "object"
          ? unscoped(v, stored, client, depth + 1)
          : v;
    if (u === v) continue;
    out ??= { ...value };
    out[k] = u;
  }
  return out ?? value;
}

export class RunRegistry {
  /** Runs driven here, oldest first (a Map keeps insertion order): finished ones up to a count. */
  private readonly runs = new Map<string, LiveRun>();
  /** Of those, the one not finished on each thread (a thread runs one at a time). */
  private readonly unfinishedOn = new Map<string, LiveRun>();
  private finishedCount = 0;
  private readonly ledger: EventLedger;
  /** Runs started here, by tenant, not yet recorded as running (counted against the cap). */
  private readonly starting = new Map<string, number>();
  /**
   * Moves whenever this replica's running counts do (a run counted as starting, recorded or
   * refused; a queued run taken): a count read at an unchanged epoch is still this replica's.
   */
  private capEpoch = 0;
  /** Fair turns on this process's thread between the tenants' runs (cpu-turns.ts). */
  readonly turns = new CpuTurns();
  /** Those waiting for a queued run to start here (`startedHere`), by run id. */
  private readonly startWaiters = new Map<string, Set<() => void>>();

  /** Told when a run's node ends (a new checkpoint): graphspec dev's page follows the thread. */
  onStep: ((storedThreadId: string) => void) | undefined;

  constructor(
    readonly store: ServerStore,
    /** This replica's name in the store (the `owner` of the runs it drives). */
    readonly replica: string = randomUUID(),
    retention?: EventRetention,
    /** The project root: errors show paths under it relative to it. */
    readonly root?: string,
    /** Runs of one tenant running at once, background and streamed (tenant-caps.ts). */
    readonly maxRunning: number = DEFAULT_TENANT_CAPS.maxRunning,
  ) {
    this.ledger = new EventLedger(retention);
  }

  /** Bytes of runs' events kept in this process now. */
  get eventBytes(): number {
    return this.ledger.bytes;
  }

  /** The run on a thread still running, if any (in this process). */
  running(storedThreadId: string): LiveRun | undefined {
    return this.unfinishedOn.get(storedThreadId);
  }

  /** Whether a run is queued or running on the thread, here or (with a shared store) anywhere. */
  async active(storedThreadId: string): Promise<boolean> {
    if (this.running(storedThreadId)) return true;
    return (await this.store.unfinishedOn(storedThreadId)).length > 0;
  }

  /** A run driven here (with its events). */
  get(runId: string): LiveRun | undefined {
    return this.runs.get(runId);
  }

  /**
   * Resolves once run `runId` is driven here (a queued run this replica took), or after `ms`, or
   * when `signal` aborts, whichever is first.
   */
  startedHere(runId: string, ms: number, signal?: AbortSignal): Promise<void> {
    if (this.runs.has(runId) || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = this.startWaiters.get(runId) ?? new Set();
      this.startWaiters.set(runId, waiters);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        waiters.delete(done);
        if (!waiters.size && this.startWaiters.get(runId) === waiters)
          this.startWaiters.delete(runId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener("abort", done, { once: true });
      waiters.add(done);
    });
  }

  /** Every run not finished (for a graceful shutdown). */
  unfinished(): LiveRun[] {
    return [...this.runs.values()].filter((r) => !r.finished);
  }

  /** Once the server stops: no run starts any more (a 503 the client may retry elsewhere). */
  stop(): void {
    this.stopping = true;
  }
  private stopping = false;

  async forgetThread(storedThreadId: string): Promise<void> {
    for (const [id, r] of this.runs)
      if (r.storedThreadId === storedThreadId) {
        this.ledger.forget(r.events);
        this.drop(id, r);
      }
    await this.store.deleteRunsOfThread(storedThreadId);
  }

  /**
   * Throws the 429 a streamed run of this tenant would get now, at its running cap: checked before
   * the request's body is read, so a tenant at its cap costs the server no body to read and parse.
   * `start` checks again (and counts) when the run starts.
   */
  async refuseOverCap(tenant: string | undefined): Promise<CapReading> {
    const key = tenantKey(tenant);
    const epoch = this.capEpoch;
    const recorded = await this.store.runningOf(key);
    if (recorded + (this.starting.get(key) ?? 0) >= this.maxRunning)
      throw tooManyRunning(this.maxRunning);
    return { recorded, epoch };
  }

  /** This replica took a queued run: the records count it as running from now on. */
  tookQueued(): void {
    this.capEpoch++;
  }

  /**
   * Starts a run and answers once it has started — or throws the HTTP error of a run the
   * executor refused before anything ran (busy thread, input that does not fit, …).
   */
  async start(s: StartRun): Promise<LiveRun> {
    const queuedHere = !s.queued
      ? (await this.store.unfinishedOn(s.storedThreadId)).includes("pending")
      : false;
    if (this.running(s.storedThreadId) || queuedHere) {
      if (s.queued) await this.store.requeue(s.queued.runId, s.queued.whenBusy);
      throw new ApiError(
        409,
        "thread-busy",
        `thread \`${s.clientThreadId}\` is busy: a run is in progress on it`,
        {
          hint: "wait for it (`runs.join`), cancel it, or start this run on another thread; multitask_strategy `reject` is the default",
        },
      );
    }
    // A streamed run counts against its tenant's running cap (a queued one was counted when
    // taken): the records' count, and those started here but not recorded yet — checked and
    // counted with no await between, so concurrent requests here cannot overshoot.
    const tenant = tenantKey(s.tenant);
    // The count read before the body was, when nothing of this replica's counts moved since:
    // the same check again, without asking the records a second time on every run.
    const read = s.capReading;
    const recorded = s.queued
      ? 0
      : read && read.epoch === this.capEpoch
        ? read.recorded
        : await this.store.runningOf(tenant);
    // Checked after the last await before the run is registered: a run either starts before the
    // stop's wait looks (and is waited for) or is refused, never started behind it.
    if (this.stopping) throw serverStopping();
    if (!s.queued && recorded + (this.starting.get(tenant) ?? 0) >= this.maxRunning)
      throw tooManyRunning(this.maxRunning);
    let counted = !s.queued;
    if (counted) {
      this.starting.set(tenant, (this.starting.get(tenant) ?? 0) + 1);
      this.capEpoch++;
    }
    const uncount = () => {
      if (!counted) return;
      counted = false;
      this.capEpoch++;
      const n = (this.starting.get(tenant) ?? 1) - 1;
      if (n > 0) this.starting.set(tenant, n);
      else this.starting.delete(tenant);
    };
    const now = new Date().toISOString();
    const abort = new AbortController();
    const run: LiveRun = {
      record: {
        run_id: s.queued?.runId ?? randomUUID(),
        thread_id: s.clientThreadId,
        assistant_id: s.assistantId,
        created_at: s.queued?.createdAt ?? now,
        updated_at: now,
        status: "running",
        metadata: s.metadata,
        multitask_strategy: s.multitaskStrategy ?? "reject",
      },
      storedThreadId: s.storedThreadId,
      graphPath: s.graphPath,
      tenant: s.tenant,
      events: noEvents(),
      finished: false,
      result: undefined,
      thrown: undefined,
      listeners: new Set(),
      abort,
      done: Promise.resolve(),
      request: s.queued?.request,
      handBack: false,
    };
    this.ledger.add(run.events, {
      event: "metadata",
      data: { run_id: run.record.run_id, attempt: 1 },
    });
    const map = sseMapper(s.modes, s.subgraphs);
    // Errors as the client may read them: its thread id, project-relative paths.
    const view = {
      root: this.root,
      threads: new Map([[s.storedThreadId, s.clientThreadId]]),
    };
    const failure = (e: RunError) => clientFailure(runFailure(e), view);
    const push = (events: SseEvent[]) => {
      if (!events.length) return;
      for (const e of events)
        this.ledger.add(run.events, {
          event: e.event,
          data: unscoped(e.data, s.storedThreadId, s.clientThreadId),
        });
      for (const wake of run.listeners) wake();
    };
    let markStarted!: (refusal: RunError | undefined) => void;
    const started = new Promise<RunError | undefined>((r) => {
      markStarted = (refusal) => {
        // Recorded (or refused): the records count it from now on.
        uncount();
        r(refusal);
      };
    });
    // The run, and all it awaits, takes its tenant's turns.
    const turned = <T>(fn: () => T) => withTurns(this.turns, tenant, fn);
    const stream = turned(() =>
      s.exec.stream(s.graphPath, {
        ...s.options,
        threadId: s.storedThreadId,
        // The clients read the modes' chunks; the nodes' ends nudge the page (`onStep`).
        graphStream: { ...graphStreamFor(s.modes, s.subgraphs), nodeEventsOnly: true },
        signal: abort.signal,
      }),
    );
    this.runs.set(run.record.run_id, run);
    this.unfinishedOn.set(s.storedThreadId, run);
    for (const wake of this.startWaiters.get(run.record.run_id) ?? []) wake();
    run.done = turned(async () => {
      let ran = false;
      try {
        for await (const e of stream as AsyncGenerator<RunEvent>) {
          if (e.type === "run_start") continue;
          if (!ran) {
            ran = true;
            const refusal =
              e.type === "failed" && e.result.error?.phase === "input" ? e.result : undefined;
            // Recorded before the client hears of it, so any replica finds it at once. A run
            // refused before it started was never one (the client gets the refusal); a queued
            // run refused when taken (its thread busy, …) ends as an error.
            if (!refusal && !s.queued)
              await this.store.putRun({
                record: { ...run.record },
                storedThreadId: s.storedThreadId,
                tenant,
                owner: this.replica,
                request: undefined,
                cancelRequested: false,
                error: undefined,
              });
            markStarted(refusal?.error);
            if (refusal) {
              // Taken while its thread was busy: back to the queue (below), not a run here.
              if (!s.queued || refusal.error?.code === "thread-busy") this.forget(run);
              run.result = refusal;
              break;
            }
          }
          if (e.type === "completed" || e.type === "interrupted" || e.type === "failed") {
            run.result = e.result;
            if (e.type === "failed" && e.result.error) {
              push([{ event: "error", data: failure(e.result.error) }]);
            }
          } else {
            await inTurn(() => push(map(e)));
            if (e.type === "node_end") this.onStep?.(s.storedThreadId);
          }
        }
      } catch (e) {
        // A spec that cannot be loaded or compiled: the run fails, the server stays up.
        const message = clientText((e as Error)?.message ?? String(e), view);
        run.result = undefined;
        // Recorded with the run, so a `join` (here or on another replica) says why.
        run.thrown = { code: "invalid-input", phase: "input", message };
        push([{ event: "error", data: { error: (e as Error)?.name ?? "Error", message } }]);
        if (!ran) markStarted({ code: "invalid-input", phase: "input", message });
        ran = true;
      } finally {
        const cancelled = run.result?.error?.code === "cancelled";
        run.record.status = run.result
          ? cancelled
            ? "interrupted"
            : STATUS_OF[run.result.status]
          : "error";
        run.record.updated_at = new Date().toISOString();
        const error = run.result?.error ?? run.thrown;
        // Its end, and its thread's record moving up in search (newest update first): one write.
        let touched = !ran;
        if (s.queued && error?.code === "thread-busy" && run.result?.status === "failed") {
          // Taken while its thread was busy: back in the queue, to wait its turn. Nothing happened
          // to the thread: its record is not touched (a retry every poll would move it up).
          run.record.status = "pending";
          touched = true;
          await this.store.requeue(run.record.run_id, s.queued.whenBusy).catch(() => {});
        } else if (run.handBack && run.request && error?.code === "cancelled") {
          // This replica stops: the run goes back to the queue, to go on from its checkpoint.
          run.record.status = "pending";
          // From its own last checkpoint: not again from the one it was started at.
          const { input: _i, resume: _r, checkpointId: _c, ...rest } = run.request.options;
          await this.store
            .requeue(run.record.run_id, {
              ...run.request,
              options: { ...rest, continue: true },
            })
            .catch(() => {});
        } else
          await this.store
            .setRunStatus(run.record.run_id, run.record.status, {
              owner: null,
              error: error && error.code !== "cancelled" ? failure(error) : null,
              touchThread: ran,
            })
            .then(
              () => {
                touched = true;
              },
              (e) => console.error("graphspec server: cannot record a run's end:", e),
            );
        if (!touched) await this.store.touchThread(s.storedThreadId).catch(() => {});
        run.finished = true;
        if (this.unfinishedOn.get(s.storedThreadId) === run)
          this.unfinishedOn.delete(s.storedThreadId);
        if (this.runs.get(run.record.run_id) === run) this.finishedCount++;
        this.ledger.finish(run.events);
        // A finished run is kept for its status and error: not its output (the whole state,
        // which the thread has) nor its request — up to 1,000 of them would hold gigabytes.
        if (run.result) run.result = { ...run.result, output: {}, interrupts: [], warnings: [] };
        run.request = undefined;
        if (!ran) markStarted(undefined);
        uncount();
        for (const wake of run.listeners) wake();
        this.prune();
      }
    });
    const refusal = await started;
    if (refusal) throw refusalError(refusal);
    return run;
  }

  /**
   * Follows a run's events from `from` until it ends (or `signal` aborts: the run goes on). A
   * follower that falls behind events no longer kept gets an `error` event saying so, and the end.
   */
  async *follow(run: LiveRun, from = 0, signal?: AbortSignal): AsyncGenerator<[number, SseEvent]> {
    let next = from;
    for (;;) {
      const kept = run.events;
      if (next < kept.first) {
        yield [next, { event: "error", data: eventsNotKept(run, next).body() }];
        return;
      }
      while (next < kept.first + kept.list.length) {
        yield [next, kept.list[next - kept.first]!];
        next++;
        // The list may have been trimmed while the follower was away.
        if (next < kept.first) break;
      }
      if (next < kept.first) continue;
      if (run.finished || signal?.aborted) return;
      await new Promise<void>((resolve) => {
        const wake = () => {
          run.listeners.delete(wake);
          signal?.removeEventListener("abort", wake);
          resolve();
        };
        run.listeners.add(wake);
        signal?.addEventListener("abort", wake, { once: true });
      });
    }
  }

  private forget(run: LiveRun): void {
    this.ledger.forget(run.events);
    this.drop(run.record.run_id, run);
  }

  /** Forgets a run of this registry's list, keeping its counts. */
  private drop(id: string, run: LiveRun): void {
    if (this.runs.get(id) !== run) return;
    this.runs.delete(id);
    if (run.finished) this.finishedCount--;
    else if (this.unfinishedOn.get(run.storedThreadId) === run)
      this.unfinishedOn.delete(run.storedThreadId);
  }

  /** The oldest finished runs past `KEPT_FINISHED` go (counted, not listed, on every run's end). */
  private prune(): void {
    for (const r of this.runs.values()) {
      if (this.finishedCount <= KEPT_FINISHED) return;
      if (r.finished) this.forget(r);
    }
  }
}

/** The answer to a client asking for a run's events from `from`, when they are no longer kept. */
export function eventsNotKept(run: LiveRun, from: number): ApiError {
  const { first } = run.events;
  const state = run.finished ? `ended (${run.record.status})` : "is still going";
  return new ApiError(
    410,
    "run-events-not-kept",
    `run \`${run.record.run_id}\` ${state}, but its events ${from === 0 ? "" : `from #${from} `}are no longer kept: this server keeps a bounded number of bytes of runs' events, and dropped ${first === 1 ? "the first" : `the first ${first}`}`,
    {
      hint: "runs.join gives the run's result and threads.getState its thread's state; follow runs as they go to see every event, or start the server with larger --max-run-event-bytes / --max-event-bytes",
    },
  );
}
