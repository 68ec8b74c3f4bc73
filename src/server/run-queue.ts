/**
 * Background runs: `runs.create` queues the run in the records (PostgreSQL, the SQLite file, or
 * this process's memory), and each replica's worker takes queued runs — `takeQueued` locks the
 * row it takes and skips rows another replica holds (`FOR UPDATE SKIP LOCKED`), so each run is
 * taken once — up to a number at a time, so replicas share the load. It takes the oldest run of
 * the tenant with the fewest runs running, never one of a tenant at its running cap
 * (tenant-caps.ts). A run with a context and no records key to seal it is queued too, pinned to
 * this replica, its context held here: it waits its turn like any other. The worker also stops
 * the runs another replica was asked to cancel. It wakes at once when this replica queues a run,
 * and polls for the others' (a queue with no NOTIFY works on SQLite too). Its statements take no
 * tenant's turns (cpu-turns.ts): it is the server's work, whoever's request woke it.
 */
import { outsideTurns } from "../compile/cpu-turns.js";
import { REPLICA_LOST } from "./replica-heartbeat.js";
import type { LiveRun } from "./run-registry.js";
import { unseal } from "./sealed-context.js";
import type { HeldContext, RunQueue, ServerParts } from "./server-parts.js";
import type { StoredRun } from "./server-store.js";

const POLL_MS = 200;
/** Background runs one replica drives at a time; the rest wait for a free replica. */
export const QUEUE_SLOTS = 16;

export function runQueue(p: ServerParts): RunQueue {
  const mine = new Set<LiveRun>();
  /** Contexts of runs pinned here, by run id; `queued` once their row is in the queue. */
  const held = new Map<string, { context: unknown; queued: boolean }>();
  /** Runs being started: each waits for its first step (its tenant's turn), so they start at once. */
  const launching = new Set<Promise<void>>();
  /** Runs refused for a busy thread when taken: not taken again before this time. */
  const notBefore = new Map<string, number>();
  let stopped = false;
  let looking: Promise<void> | undefined;
  let again = false;

  async function take(): Promise<void> {
    const store = p.runs.store;
    for (const id of await store.cancelsFor(p.runs.replica)) p.runs.get(id)?.abort.abort();
    await forgetCancelled();
    while (!stopped && driving() + launching.size < QUEUE_SLOTS) {
      const queued = await store.takeQueued(p.runs.replica, p.caps.maxRunning);
      if (!queued) return;
      p.runs.tookQueued();
      // Its thread was busy a moment ago (the oldest queued run, so it would be taken again at
      // once): back to the queue until the next poll.
      const wait = notBefore.get(queued.record.run_id);
      notBefore.delete(queued.record.run_id);
      if (wait !== undefined && wait > Date.now()) {
        await store.requeue(queued.record.run_id, queued.request!);
        return;
      }
      // Not awaited: a run starts once its first step has had a turn (cpu-turns.ts), and a
      // busy tenant's run waiting for one must not hold another tenant's queued run back.
      const launched = launch(queued)
        .catch((e) => console.error("graphspec server: the run queue:", e))
        .finally(() => {
          launching.delete(launched);
          kick();
        });
      launching.add(launched);
    }
  }

  /**
   * Runs of `mine` whose end is not recorded: a run's slot is free once its status is set, as its
   * tenant's running count in the records is. Its `done` comes later, after its thread's record is
   * touched in its tenant's turns — behind every chunk that tenant has waiting — and a busy
   * tenant's runs ended but not done held the slots its next runs did not: with 12 running of 16
   * slots, the other 4 (up to 10 seen) went to its ended runs, and another tenant's queued run
   * had to wait for one of them.
   */
  function driving(): number {
    let n = 0;
    for (const run of mine) if (run.record.status === "running") n++;
    return n;
  }

  /** Contexts of pinned runs cancelled (here or through another replica) while queued. */
  async function forgetCancelled(): Promise<void> {
    const ids = [...held].filter(([, h]) => h.queued).map(([id]) => id);
    if (!ids.length) return;
    const still = new Set(await p.runs.store.stillQueued(ids));
    for (const id of ids) if (!still.has(id)) held.delete(id);
  }

  async function launch(queued: StoredRun): Promise<void> {
    const request = queued.request!;
    let options = request.options;
    if (queued.pinned !== undefined) {
      const context = held.get(queued.record.run_id);
      held.delete(queued.record.run_id);
      if (!context) {
        await p.runs.store.setRunStatus(queued.record.run_id, "error", {
          owner: null,
          error: {
            error: REPLICA_LOST,
            message:
              "this run cannot start: its context was in the memory of a replica that stopped",
            hint: "start the run again; give every replica the same GRAPHSPEC_RECORDS_KEY so that any replica can run it",
          },
        });
        return;
      }
      options = { ...options, context: context.context };
    } else if (request.sealedContext !== undefined) {
      const opened = unseal(p.recordsKey, request.sealedContext, queued.record.run_id);
      if ("problem" in opened) {
        await p.runs.store.setRunStatus(queued.record.run_id, "error", {
          owner: null,
          error: {
            error: "records-key",
            message: `this run cannot start: ${opened.problem}`,
            hint: "give every replica the same GRAPHSPEC_RECORDS_KEY, then start the run again",
          },
        });
        return;
      }
      options = { ...options, context: opened.value };
    }
    const graph = await p.graphs.find(request.graph);
    if (!graph) {
      await p.runs.store.setRunStatus(queued.record.run_id, "error", {
        owner: null,
        error: { error: "assistant-not-found", message: `there is no graph \`${request.graph}\`` },
      });
      return;
    }
    const run = await p.runs
      .start({
        exec: p.exec,
        graphPath: graph.path,
        // A saved assistant's id, when the run named one (its graph is the request's).
        assistantId: queued.record.assistant_id,
        storedThreadId: queued.storedThreadId,
        clientThreadId: request.clientThreadId,
        tenant: request.tenant,
        options: options as never,
        // The modes `runs.create` asked for, so `joinStream` replays them from the start.
        modes: request.modes ?? ["values"],
        subgraphs: request.subgraphs ?? false,
        metadata: queued.record.metadata,
        multitaskStrategy: request.multitaskStrategy,
        queued: {
          runId: queued.record.run_id,
          createdAt: queued.record.created_at,
          // Not handed back to the queue on SIGTERM when pinned: its context would not go along.
          request: queued.pinned === undefined ? request : undefined,
          whenBusy: request,
        },
      })
      // Refused when taken: its thread busy (back in the queue, its context held here again if
      // pinned, not taken again before the next poll), or anything else (its record says so).
      .catch((e: unknown) => {
        if ((e as { code?: unknown })?.code !== "thread-busy") return undefined;
        notBefore.set(queued.record.run_id, Date.now() + POLL_MS);
        if (queued.pinned !== undefined && options.context !== undefined)
          held.set(queued.record.run_id, { context: options.context, queued: true });
        return undefined;
      });
    if (!run) return;
    mine.add(run);
    run.done.then(async () => {
      mine.delete(run);
      if (request.stateless && !request.keep) {
        await p.exec.deleteThread(queued.storedThreadId).catch(() => false);
        await p.runs.store.deleteThread(queued.storedThreadId).catch(() => false);
      }
      kick();
    });
  }

  function kick(): void {
    if (stopped) return;
    if (looking) {
      again = true;
      return;
    }
    // The queue's own statements in no tenant's turns: a kick comes from a tenant's request or
    // run, and in its turns taking another tenant's run waited behind all of its waiting chunks.
    looking = outsideTurns(take)
      .catch((e) => console.error("graphspec server: the run queue:", e))
      .finally(() => {
        looking = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  const timer = setInterval(kick, POLL_MS);
  timer.unref();
  kick();
  return {
    kick,
    hold(runId, context): HeldContext {
      const entry = { context, queued: false };
      held.set(runId, entry);
      return {
        queued: () => {
          entry.queued = true;
        },
        drop: () => {
          held.delete(runId);
        },
      };
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await looking;
      await Promise.all(launching);
      // Runs pinned here and not started: nobody else has their contexts.
      held.clear();
      await p.runs.store
        .endPinned(p.runs.replica, {
          error: "replica-stopped",
          message:
            "the replica that accepted this run stopped before it started, and its context was in that replica's memory only",
          hint: "start the run again; give every replica the same GRAPHSPEC_RECORDS_KEY so that any replica can run it",
        })
        .catch(() => {});
    },
  };
}
