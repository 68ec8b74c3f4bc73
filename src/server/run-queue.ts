/**
 * Background runs with a shared store (PostgreSQL, or the SQLite file): `runs.create` queues the
 * run in the database, and each replica's worker takes queued runs — `takeQueued` locks the row
 * it takes and skips rows another replica holds (`FOR UPDATE SKIP LOCKED`), so each run is taken
 * once — up to a number at a time, so replicas share the load. The worker also stops the runs
 * another replica was asked to cancel. It wakes at once when this replica queues a run, and polls
 * for the others' (a queue with no NOTIFY works on SQLite too).
 */
import type { LiveRun } from "./run-registry.js";
import { unseal } from "./sealed-context.js";
import type { RunQueue, ServerParts } from "./server-parts.js";
import type { StoredRun } from "./server-store.js";

const POLL_MS = 200;
/** Background runs one replica drives at a time; the rest wait for a free replica. */
export const QUEUE_SLOTS = 16;

export function runQueue(p: ServerParts): RunQueue {
  const mine = new Set<LiveRun>();
  let stopped = false;
  let looking: Promise<void> | undefined;
  let again = false;

  async function take(): Promise<void> {
    const store = p.runs.store;
    for (const id of await store.cancelsFor(p.runs.replica)) p.runs.get(id)?.abort.abort();
    while (!stopped && mine.size < QUEUE_SLOTS) {
      const queued = await store.takeQueued(p.runs.replica);
      if (!queued) return;
      await launch(queued);
    }
  }

  async function launch(queued: StoredRun): Promise<void> {
    const request = queued.request!;
    let options = request.options;
    if (request.sealedContext !== undefined) {
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
        assistantId: graph.assistantId,
        storedThreadId: queued.storedThreadId,
        clientThreadId: request.clientThreadId,
        tenant: request.tenant,
        options: options as never,
        // The modes `runs.create` asked for, so `joinStream` replays them from the start.
        modes: request.modes ?? ["values"],
        subgraphs: request.subgraphs ?? false,
        metadata: queued.record.metadata,
        queued: { runId: queued.record.run_id, createdAt: queued.record.created_at, request },
      })
      // Refused when taken (its thread busy, …): the run's record says so (status error).
      .catch(() => undefined);
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
    looking = take()
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
    async stop() {
      stopped = true;
      clearInterval(timer);
      await looking;
    },
  };
}
