/**
 * What the API keeps beside the checkpoints: thread records (created at, metadata — a thread made
 * by `threads.create` has no checkpoint yet) and run records (status, and for a queued background
 * run what to start). In this process (`memoryStore`) for the memory checkpointer; in the
 * checkpointer's database otherwise (sql-server-store.ts), so a restart keeps them and replicas on
 * one PostgreSQL share them — and take queued runs from one queue.
 */
import type { RunFailure } from "./run-failure.js";
import type { ApiStreamMode } from "./stream-modes.js";

export type RunStatus = "pending" | "running" | "error" | "success" | "timeout" | "interrupted";

/** A run as the API shows it. */
export interface RunRecord {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  created_at: string;
  updated_at: string;
  status: RunStatus;
  metadata: Record<string, unknown>;
  /**
   * What the run was sent with: `reject` (the default), `interrupt` (multitask-interrupt.ts) or
   * `enqueue` (queued behind the thread's runs).
   */
  multitask_strategy: MultitaskStrategy;
}

export type MultitaskStrategy = "reject" | "interrupt" | "enqueue";

export interface ThreadRecord {
  created_at: string;
  updated_at: string;
  metadata: Record<string, unknown>;
}

/** What a replica needs to start a queued run (graphs by name: replicas may keep specs elsewhere). */
export interface QueuedRequest {
  graph: string;
  clientThreadId: string;
  tenant: string | undefined;
  options: {
    input?: unknown;
    resume?: unknown;
    continue?: boolean;
    context?: unknown;
    checkpointId?: string;
    goto?: string[];
    update?: Record<string, unknown>;
  };
  /**
   * The run's context, sealed with the records key (sealed-context.ts), bound to the run's id;
   * `options.context` is then absent. A context is never stored in plaintext.
   */
  sealedContext?: string | undefined;
  stateless: boolean;
  keep: boolean;
  /** The `stream_mode`s asked for (kept for `joinStream`); `values` when absent (older rows). */
  modes?: ApiStreamMode[] | undefined;
  subgraphs?: boolean | undefined;
  /**
   * `interrupt`: the thread's run was stopped before this one was queued; `enqueue`: it was queued
   * behind the thread's runs; `reject` when absent.
   */
  multitaskStrategy?: MultitaskStrategy | undefined;
}

export interface StoredRun {
  record: RunRecord;
  storedThreadId: string;
  /** Whose run it is, for the tenant's caps and fair share (tenant-caps.ts): `""` without auth. */
  tenant: string;
  /**
   * The only replica that may take it from the queue: its context is in that replica's memory
   * (no records key to seal it with). Undefined: any replica.
   */
  pinned?: string | undefined;
  /** The replica running it (undefined: queued, or finished). */
  owner: string | undefined;
  /** Set for a background run, until it is taken. */
  request: QueuedRequest | undefined;
  cancelRequested: boolean;
  error: RunFailure | undefined;
}

/** A thread found in the checkpointer (its latest checkpoint's time), for `adoptThreads`. */
export interface AdoptedThread {
  id: string;
  metadata: Record<string, unknown>;
  updatedAt: string;
}

export interface ThreadQuery {
  /** Stored ids start with this (the tenant's scope). */
  prefix: string;
  ids?: string[] | undefined;
  /** Exact values of top-level metadata keys. */
  metadata?: Record<string, unknown> | undefined;
}

export interface RunsOfThread {
  statuses?: RunStatus[];
  limit?: number;
}

export interface ServerStore {
  /** Whether other processes see the same records (a queue, and joins across replicas). */
  readonly shared: boolean;
  getThread(storedId: string): Promise<ThreadRecord | undefined>;
  /** The record, created when missing (an existing one is left as it is). */
  ensureThread(storedId: string, metadata: Record<string, unknown>): Promise<ThreadRecord>;
  patchThread(storedId: string, metadata: Record<string, unknown>): Promise<ThreadRecord>;
  touchThread(storedId: string): Promise<void>;
  deleteThread(storedId: string): Promise<boolean>;
  threadIds(prefix: string): Promise<string[]>;
  /**
   * Records for threads the checkpointer holds (checkpoint-threads.ts): a missing one is created
   * with `metadata`, made and updated at `updatedAt`; an existing one older than that is updated
   * then (its metadata left as it is). Writes only what changes.
   */
  adoptThreads(threads: AdoptedThread[]): Promise<void>;
  /** Records matching the query, newest update first (`total`: before `limit`/`offset`). */
  searchThreads(
    q: ThreadQuery,
    page: { limit: number; offset: number },
  ): Promise<{ id: string; record: ThreadRecord }[]>;

  putRun(run: StoredRun): Promise<void>;
  /**
   * Queues a background run unless its tenant has `maxQueued` queued already (checked and
   * inserted at once: concurrent requests cannot overshoot). Whether it was queued.
   */
  queueRun(run: StoredRun, maxQueued: number): Promise<boolean>;
  /** Runs of `tenant` running now, on any replica. */
  runningOf(tenant: string): Promise<number>;
  getRun(runId: string): Promise<StoredRun | undefined>;
  /**
   * Runs of a thread, newest first: with `statuses`, only those; with `limit`, at most that many
   * (asking for one is cheap however many runs the thread has had).
   */
  runsOfThread(storedThreadId: string, query?: RunsOfThread): Promise<StoredRun[]>;
  /** The statuses of the thread's runs queued or running (no record read: asked on every run). */
  unfinishedOn(storedThreadId: string): Promise<RunStatus[]>;
  /**
   * Answers the stored id of the run's thread (undefined: no such run): the write's thread. With
   * `touchThread`, that thread's `updated_at` moves too (it comes up first in search), in the
   * same transaction: a run's end is one write, not two.
   */
  setRunStatus(
    runId: string,
    status: RunStatus,
    extra?: { owner?: string | null; error?: RunFailure | null; touchThread?: boolean },
  ): Promise<string | undefined>;
  requestCancel(runId: string): Promise<void>;
  /** Runs of `owner` whose cancellation another replica asked for. */
  cancelsFor(owner: string): Promise<string[]>;
  /**
   * A queued run, taken by `owner` (no other replica can take it): the oldest of the tenant with
   * the fewest runs running, among tenants with fewer than `maxRunning` (fair share), and not
   * pinned to another replica.
   */
  takeQueued(owner: string, maxRunning: number): Promise<StoredRun | undefined>;
  /** Ends the queued runs pinned to `replica` (it stops: their contexts go with it). */
  endPinned(replica: string, error: RunFailure): Promise<void>;
  /** Of these runs, those still queued. */
  stillQueued(runIds: string[]): Promise<string[]>;
  /** A run given back (its replica stops): queued again, to go on from its last checkpoint. */
  requeue(runId: string, request: QueuedRequest): Promise<void>;
  deleteRunsOfThread(storedThreadId: string): Promise<void>;
  /** Replicas' heartbeats, with a shared store (replica-heartbeat.ts). */
  readonly replicas?: ReplicaHeartbeats;
  close(): Promise<void>;
}

/**
 * Which replicas are alive: each writes, every beat, until when it promises its next one (by the
 * database's clock, so replicas' clocks need not agree). A replica past its promise is dead, and
 * the runs it held are released.
 */
export interface ReplicaHeartbeats {
  /** `replica` is alive for `ttlMs` more. */
  beat(replica: string, ttlMs: number): Promise<void>;
  /** `replica` stopped on purpose (its runs were finished or handed back). */
  gone(replica: string): Promise<void>;
  /** Runs still `running` under a replica past its promised beat. */
  orphans(): Promise<StoredRun[]>;
  /**
   * Releases an orphan — queued again with `request`, or ended with `error` — if it is still
   * `running` under `owner` (another replica may have released it first). Whether this did.
   */
  release(
    runId: string,
    owner: string,
    to: { request: QueuedRequest } | { error: RunFailure },
  ): Promise<boolean>;
  /**
   * Ends the queued runs pinned to replicas past their promise (their contexts died with them),
   * with `error`. The replicas they were pinned to.
   */
  releasePinned(error: RunFailure): Promise<string[]>;
  /** Forgets a dead replica once it holds no run. */
  forgetDead(replica: string): Promise<void>;
}

const now = () => new Date().toISOString();
const equal = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Records in this process: what the memory checkpointer's threads have (they die with it too). */
export function memoryStore(): ServerStore {
  const threads = new Map<string, ThreadRecord>();
  const runs = new Map<string, StoredRun>();
  // Indexes, so that what every run asks (its thread's runs, its tenant's counts, the queue)
  // does not go through every run kept: runs by thread, and those queued or running.
  const byThread = new Map<string, Set<StoredRun>>();
  const unfinished = new Set<StoredRun>();
  /** After a run's status changed: in `unfinished` exactly while queued or running. */
  const track = (r: StoredRun) => {
    if (r.record.status === "pending" || r.record.status === "running") unfinished.add(r);
    else unfinished.delete(r);
  };
  const untrack = (r: StoredRun) => {
    unfinished.delete(r);
    const mine = byThread.get(r.storedThreadId);
    mine?.delete(r);
    if (mine?.size === 0) byThread.delete(r.storedThreadId);
  };
  return {
    shared: false,
    async getThread(id) {
      return threads.get(id);
    },
    async ensureThread(id, metadata) {
      let r = threads.get(id);
      if (!r) {
        const t = now();
        r = { created_at: t, updated_at: t, metadata: { ...metadata } };
        threads.set(id, r);
      }
      return r;
    },
    async patchThread(id, metadata) {
      const r = await this.ensureThread(id, {});
      r.metadata = { ...r.metadata, ...metadata };
      r.updated_at = now();
      return r;
    },
    async touchThread(id) {
      const r = threads.get(id);
      if (r) r.updated_at = now();
    },
    async deleteThread(id) {
      return threads.delete(id);
    },
    async threadIds(prefix) {
      return [...threads.keys()].filter((id) => id.startsWith(prefix));
    },
    async adoptThreads(found) {
      for (const t of found) {
        const r = threads.get(t.id);
        if (!r)
          threads.set(t.id, {
            created_at: t.updatedAt,
            updated_at: t.updatedAt,
            metadata: { ...t.metadata },
          });
        else if (r.updated_at < t.updatedAt) r.updated_at = t.updatedAt;
      }
    },
    async searchThreads(q, page) {
      return [...threads.entries()]
        .filter(([id]) => id.startsWith(q.prefix))
        .filter(([id]) => !q.ids || q.ids.includes(id))
        .filter(([, r]) =>
          Object.entries(q.metadata ?? {}).every(([k, v]) => equal(r.metadata[k], v)),
        )
        .sort((a, b) => (a[1].updated_at < b[1].updated_at ? 1 : -1))
        .slice(page.offset, page.offset + page.limit)
        .map(([id, record]) => ({ id, record }));
    },
    async putRun(run) {
      const old = runs.get(run.record.run_id);
      if (old) untrack(old);
      runs.set(run.record.run_id, run);
      const mine = byThread.get(run.storedThreadId) ?? new Set<StoredRun>();
      mine.add(run);
      byThread.set(run.storedThreadId, mine);
      track(run);
      // Bounded: the oldest finished runs go first.
      if (runs.size > 2000)
        for (const [id, r] of runs) {
          if (runs.size <= 1000) break;
          if (!unfinished.has(r)) {
            runs.delete(id);
            untrack(r);
          }
        }
    },
    async queueRun(run, maxQueued) {
      let queued = 0;
      for (const r of unfinished)
        if (r.tenant === run.tenant && r.record.status === "pending") queued++;
      if (queued >= maxQueued) return false;
      await this.putRun(run);
      return true;
    },
    async runningOf(tenant) {
      let n = 0;
      for (const r of unfinished) if (r.tenant === tenant && r.record.status === "running") n++;
      return n;
    },
    async getRun(id) {
      return runs.get(id);
    },
    async runsOfThread(tid, q = {}) {
      const found = [...(byThread.get(tid) ?? [])]
        .reverse()
        .filter((r) => !q.statuses || q.statuses.includes(r.record.status));
      return q.limit === undefined ? found : found.slice(0, q.limit);
    },
    async unfinishedOn(tid) {
      const statuses: RunStatus[] = [];
      for (const r of byThread.get(tid) ?? [])
        if (unfinished.has(r)) statuses.push(r.record.status);
      return statuses;
    },
    async setRunStatus(id, status, extra = {}) {
      const r = runs.get(id);
      if (!r) return undefined;
      r.record.status = status;
      r.record.updated_at = now();
      if (status !== "pending" && status !== "running") r.request = undefined;
      if (extra.owner !== undefined) r.owner = extra.owner ?? undefined;
      if (extra.error !== undefined) r.error = extra.error ?? undefined;
      track(r);
      if (extra.touchThread) {
        const t = threads.get(r.storedThreadId);
        if (t) t.updated_at = now();
      }
      return r.storedThreadId;
    },
    async requestCancel(id) {
      const r = runs.get(id);
      if (!r) return;
      r.cancelRequested = true;
      // A run still queued is cancelled here: nothing will take it.
      if (r.record.status === "pending") {
        r.record.status = "interrupted";
        r.request = undefined;
      }
      track(r);
    },
    async cancelsFor() {
      return [];
    },
    async takeQueued(owner, maxRunning) {
      const running = new Map<string, number>();
      for (const r of unfinished)
        if (r.record.status === "running") running.set(r.tenant, (running.get(r.tenant) ?? 0) + 1);
      const load = (r: StoredRun) => running.get(r.tenant) ?? 0;
      // One run a thread, in the order they came (multitask_strategy "enqueue"): none while a
      // run of its thread is running, nor before an older one queued on it.
      const busy = new Set<string>();
      const first = new Map<string, StoredRun>();
      for (const r of unfinished) {
        if (r.record.status === "running") busy.add(r.storedThreadId);
        if (r.record.status !== "pending") continue;
        const o = first.get(r.storedThreadId);
        if (!o || before(r, o)) first.set(r.storedThreadId, r);
      }
      const next = [...unfinished]
        .filter((r) => r.record.status === "pending" && r.request && load(r) < maxRunning)
        .filter((r) => !busy.has(r.storedThreadId) && first.get(r.storedThreadId) === r)
        .filter((r) => r.pinned === undefined || r.pinned === owner)
        .sort((a, b) => load(a) - load(b) || (before(a, b) ? -1 : 1))[0];
      if (!next) return undefined;
      next.record.status = "running";
      next.owner = owner;
      return next;
    },
    async endPinned(replica, error) {
      for (const r of [...unfinished])
        if (r.pinned === replica && r.record.status === "pending") {
          r.record.status = "error";
          r.request = undefined;
          r.error = error;
          track(r);
        }
    },
    async stillQueued(ids) {
      return ids.filter((id) => runs.get(id)?.record.status === "pending");
    },
    async requeue(id, request) {
      const r = runs.get(id);
      if (!r) return;
      r.record.status = "pending";
      r.owner = undefined;
      r.request = request;
      track(r);
    },
    async deleteRunsOfThread(tid) {
      for (const r of byThread.get(tid) ?? []) {
        runs.delete(r.record.run_id);
        untrack(r);
      }
    },
    async close() {},
  };
}

/** Whether run `a` came before `b` (queued earlier; the run id breaks a tie). */
const before = (a: StoredRun, b: StoredRun) =>
  a.record.created_at < b.record.created_at ||
  (a.record.created_at === b.record.created_at && a.record.run_id < b.record.run_id);
