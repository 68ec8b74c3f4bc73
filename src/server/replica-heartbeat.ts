/**
 * A replica's heartbeat, with a shared store: every beat it promises the database its next one
 * (`DEAD_AFTER_BEATS` beats ahead), and looks for replicas past their promise — killed, not
 * stopped (SIGKILL, a lost machine), so they neither finished nor handed back their runs. Their
 * records would stay `running`, and their threads refuse runs, deletion and updates. Each such run
 * is released once (a conditional UPDATE: replicas that look together do not both release it): a
 * background run goes back to the queue, to go on from its thread's last checkpoint (or to start
 * again with its input when it wrote none); a streamed run ends `error` (its client was cut off
 * with its replica) and its thread takes the next run (`input: null` goes on from the checkpoint).
 */
import type { Executor } from "../run/executor-api.js";
import type { ReplicaHeartbeats, StoredRun } from "./server-store.js";

/** How often a replica beats, unless told (`graphspec serve --heartbeat`). */
export const DEFAULT_HEARTBEAT_MS = 2000;
/** Beats a replica may miss (a pause, a slow database) before it is taken for dead. */
export const DEAD_AFTER_BEATS = 5;

export const REPLICA_LOST = "replica-lost";

export interface Heartbeat {
  /** Stops beating and says this replica is gone (its runs are finished or handed back). */
  stop(): Promise<void>;
}

/** Beats once before it resolves, so that no run of this replica is ever recorded unpromised. */
export async function startHeartbeat(
  beats: ReplicaHeartbeats,
  replica: string,
  exec: Executor,
  everyMs = DEFAULT_HEARTBEAT_MS,
): Promise<Heartbeat> {
  const ttl = everyMs * DEAD_AFTER_BEATS;
  await beats.beat(replica, ttl);
  let current: Promise<void> = Promise.resolve();
  const tick = () => {
    current = current
      .then(async () => {
        await beats.beat(replica, ttl);
        await releaseOrphans(beats, exec);
      })
      .catch((e) => console.error("graphspec server: the replica heartbeat:", e));
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  tick();
  return {
    async stop() {
      clearInterval(timer);
      await current;
      await beats.gone(replica).catch(() => {});
    },
  };
}

async function releaseOrphans(beats: ReplicaHeartbeats, exec: Executor): Promise<void> {
  const orphans = await beats.orphans();
  const dead = new Set<string>();
  for (const run of orphans) {
    dead.add(run.owner!);
    await beats.release(run.record.run_id, run.owner!, await releasedAs(run, exec));
  }
  // Queued runs only the dead replica could take (their contexts were in its memory): ended.
  for (const replica of await beats.releasePinned(lostWithContext)) dead.add(replica);
  for (const replica of dead) await beats.forgetDead(replica);
}

/** A run whose context was only in a lost replica's memory (no records key). */
const lostWithContext = {
  error: REPLICA_LOST,
  message:
    "the replica that accepted this run stopped without handing it back (killed), and its context was in that replica's memory only",
  hint: "go on from the thread's last checkpoint with `input: null` and the context, or start the run again; give every replica the same GRAPHSPEC_RECORDS_KEY so that any replica can run it",
};

async function releasedAs(
  run: StoredRun,
  exec: Executor,
): Promise<Parameters<ReplicaHeartbeats["release"]>[2]> {
  const request = run.request;
  // Its context died with the replica: started again without it, the run would be another.
  if (run.pinned !== undefined) return { error: lostWithContext };
  if (!request)
    return {
      error: {
        error: REPLICA_LOST,
        message:
          "the replica running it stopped without handing it back (killed); go on from the " +
          "thread's last checkpoint with `input: null`",
      },
    };
  // Nothing written yet: the run starts again as asked. Else it goes on from its checkpoint,
  // as a run handed back on SIGTERM does (the node that was running runs again).
  if ((await exec.state(run.storedThreadId).catch(() => undefined)) === undefined)
    return { request };
  const { input: _i, resume: _r, ...rest } = request.options;
  return { request: { ...request, options: { ...rest, continue: true } } };
}
