/**
 * Bounds on what a checkpointer stores for a thread, as a wrapper of its `put` and `putWrites`:
 *
 * - A checkpoint whose state is over `maxStateBytes`, or a step whose writes together are, is
 *   refused before it is written (`state-too-large`): the run fails, and the thread's last good
 *   checkpoint stays — without the refused step's writes, so the thread stands before that step
 *   and a resume (with a larger limit) runs it again. No row can grow towards SQLite's 1 GB limit, past which reading the table
 *   fails (`string or blob too big`) for every thread, not just the runaway one.
 * - LangGraph's SQLite checkpointer stores every channel's full value in every checkpoint (a 3 MB
 *   state after 300 appends is 500 MB). Past `maxThreadBytes`, a thread's oldest checkpoints and
 *   their writes are deleted (prune-thread.ts), so a thread keeps its recent history within the
 *   bound (docs/design.md, "A thread's stored checkpoints are bounded").
 */
import { type BaseCheckpointSaver, MemorySaver } from "@langchain/langgraph";
import { inTurn } from "../compile/cpu-turns.js";
import { GraphspecRunError } from "../compile/graphspec-run-error.js";
import { CheckpointerError } from "./checkpointer-error.js";
import { measureJson } from "./least-json-bytes.js";
import { plainSerde } from "./plain-serde.js";
import { pruneThread, type SqliteDb } from "./prune-thread.js";
import { isSaverKind } from "./saver-kind.js";
import { serializeOnce, storesWhole } from "./serialize-once.js";
import { formatBytes, type SizeLimits } from "./size-limits.js";

/** Writes measured so far per checkpoint (one step's), for the running total; bounded. */
const MAX_TRACKED_STEPS = 1000;
/**
 * Threads whose stored bytes are followed between counts (thread-bytes below); past it the least
 * recently stored to goes (and is counted again at its next checkpoint).
 */
const MAX_TRACKED_THREADS = 10_000;
/** A followed thread is counted in the database again at every this many checkpoints. */
const RECOUNT_EVERY = 32;
/** What a checkpoint row holds besides its values (versions, metadata), as followed: generous. */
const ROW_OVERHEAD = 2048;

const boundsText = (l: Required<SizeLimits>) =>
  `maxStateBytes ${l.maxStateBytes.toLocaleString("en-US")}, maxThreadBytes ${l.maxThreadBytes.toLocaleString("en-US")}`;

const sharedOtherwise = (earlier: Required<SizeLimits>, limits: Required<SizeLimits>) =>
  new CheckpointerError(
    `this checkpointer object is bounded by another executor (${boundsText(earlier)}), not by this one's (${boundsText(limits)})`,
    "give each executor a checkpointer object of its own (two SqliteSavers may open one database file), or the same maxStateBytes and maxThreadBytes",
  );

const tooLarge = (what: string, bytes: number, limit: number, atLeast = false) =>
  new GraphspecRunError(
    "state-too-large",
    `${what} would be ${atLeast ? "at least " : ""}${bytes.toLocaleString("en-US")} bytes, over the limit of ${limit.toLocaleString("en-US")} bytes (${formatBytes(limit)}): it was not stored, and the thread's last checkpoint is kept`,
    {
      hint: "keep large values out of state (store them elsewhere and keep a reference), stop the loop that grows it, or raise the executor's `maxStateBytes` (CLI: --max-state-bytes)",
    },
  );

/** The bounds each saver was wrapped with: in place, so once, by the first executor to open it. */
const bounded = new WeakMap<BaseCheckpointSaver, Required<SizeLimits>>();

/** An opened checkpointer with its saver bounded. */
export const withBounds = async <T extends { saver: BaseCheckpointSaver }>(
  open: Promise<T>,
  limits: Required<SizeLimits>,
): Promise<T> => {
  const opened = await open;
  boundCheckpoints(opened.saver, limits);
  return opened;
};

/**
 * Wraps `saver` (in place, as the other wrappers do; once) with the state and thread bounds. A
 * saver another executor already bounds otherwise is refused: it would silently keep those.
 */
export function boundCheckpoints(
  saver: BaseCheckpointSaver,
  limits: Required<SizeLimits>,
): BaseCheckpointSaver {
  const earlier = bounded.get(saver);
  if (earlier) {
    if (
      earlier.maxStateBytes !== limits.maxStateBytes ||
      earlier.maxThreadBytes !== limits.maxThreadBytes
    )
      throw sharedOtherwise(earlier, limits);
    return saver;
  }
  bounded.set(saver, limits);
  const put = saver.put.bind(saver);
  const putWrites = saver.putWrites.bind(saver);
  const stepBytes = new Map<string, number>();
  // Writes being stored, per checkpoint: a refused step's are deleted only once they are in
  // (LangGraph does not wait for them before storing the step's checkpoint; PostgreSQL's take a
  // round trip, and one landing after the delete made the thread look past the refused step).
  const storing = new Map<string, Set<Promise<unknown>>>();
  // Plain states written and read without LangGraph's per-value replacer and reviver
  // (plain-serde.ts); then measured from the bytes the saver stores (serialize-once.ts).
  const once = serializeOnce(saver, plainSerde(saver));
  // Pruned on SQLite only (pruneThread): its database, and each thread's bytes followed.
  const db = sqliteDb(saver);
  const pruning = db && { db, threadBytes: followThreadBytes(limits.maxThreadBytes) };
  // A server's runs take turns for the CPU-heavy part of storing and reading (cpu-turns.ts): the
  // whole call when the saver is synchronous underneath (SQLite, memory), else up to its I/O.
  const sync = storesWhole(saver);
  const getTuple = saver.getTuple.bind(saver);
  saver.getTuple = (config) => inTurn(() => getTuple(config), sync);
  // Thread ids and namespaces are strings (ids of checkpoints too): a separator no id has.
  const keyOf = (c: Record<string, unknown>) =>
    `${c.thread_id}\u0000${c.checkpoint_ns ?? ""}\u0000${c.checkpoint_id}`;

  saver.putWrites = (config, writes, taskId, taskPath) => {
    const key = keyOf(config.configurable ?? {});
    const stored = inTurn(() => boundedWrites(key, config, writes, taskId, taskPath), sync);
    const pending = storing.get(key) ?? new Set();
    storing.set(key, pending);
    pending.add(stored);
    const forget = () => {
      pending.delete(stored);
      if (!pending.size) storing.delete(key);
    };
    stored.then(forget, forget);
    return stored;
  };

  const boundedWrites = async (
    key: string,
    ...[config, writes, taskId, taskPath]: Parameters<BaseCheckpointSaver["putWrites"]>
  ) => {
    let total = stepBytes.get(key) ?? 0;
    for (const [, value] of writes) {
      // Counted before it is serialized: what is over the limit already is never serialized.
      const { bytes, plain } = measureJson(value, limits.maxStateBytes - total);
      const least = total + bytes;
      if (least > limits.maxStateBytes)
        throw tooLarge("the writes of this step", least, limits.maxStateBytes, true);
      total += await once.size(value, plain);
      if (total > limits.maxStateBytes)
        throw tooLarge("the writes of this step", total, limits.maxStateBytes);
    }
    const added = total - (stepBytes.get(key) ?? 0);
    stepBytes.delete(key);
    stepBytes.set(key, total);
    if (stepBytes.size > MAX_TRACKED_STEPS) stepBytes.delete(stepBytes.keys().next().value!);
    const stored = await putWrites(config, writes, taskId, taskPath);
    const threadId = config.configurable?.thread_id;
    if (threadId !== undefined) pruning?.threadBytes.stored(String(threadId), added);
    return stored;
  };

  saver.put = async (config, checkpoint, metadata, newVersions) => {
    // Measured in one turn, stored in the next: two chunks of a state's serialization and its
    // store (each up to the state bound), not one twice as long for the other tenants to wait on.
    // A refused state is not stored (its step's writes may be waiting for a turn to be stored
    // before they are deleted). A state over the limit by its count (least-json-bytes.ts) is
    // refused unserialized.
    const { bytes, atLeast } = await inTurn(async () => {
      const least = measureJson(checkpoint.channel_values, limits.maxStateBytes);
      if (least.bytes > limits.maxStateBytes) return { bytes: least.bytes, atLeast: true };
      return { bytes: await once.stateSize(checkpoint, least.plain), atLeast: false };
    }, sync);
    const refused = bytes > limits.maxStateBytes ? bytes : undefined;
    let stored: Awaited<ReturnType<typeof put>> | undefined;
    if (refused === undefined)
      await inTurn(async () => {
        try {
          stored = await put(config, checkpoint, metadata, newVersions);
        } finally {
          once.forget(checkpoint);
        }
        const threadId = config.configurable?.thread_id;
        if (threadId !== undefined && pruning) {
          const id = String(threadId);
          if (pruning.threadBytes.checkpoint(id, bytes + ROW_OVERHEAD))
            pruning.threadBytes.counted(id, pruneThread(pruning.db, id, limits.maxThreadBytes));
        }
      }, sync);
    if (refused === undefined) return stored!;
    once.forget(checkpoint);
    const c = config.configurable ?? {};
    if (c.thread_id !== undefined && c.checkpoint_id !== undefined) {
      await Promise.allSettled([...(storing.get(keyOf(c)) ?? [])]);
      await discardWrites(
        saver,
        String(c.thread_id),
        String(c.checkpoint_ns ?? ""),
        String(c.checkpoint_id),
      );
    }
    throw tooLarge("the state", refused, limits.maxStateBytes, atLeast);
  };
  return saver;
}

/**
 * What each thread's rows take, followed between counts: counting in the database reads every
 * checkpoint row of the thread, and doing it after each checkpoint (as pruning did) made every
 * step of a thread with a long history slower than the last — 10 s of the soak's 135 s of CPU,
 * on the server's one thread. So a thread is counted when first stored to, when what was stored
 * since its last count could take it past the budget, and at every `RECOUNT_EVERY`th checkpoint
 * (what is followed is an estimate: the values' bytes, plus `ROW_OVERHEAD` a checkpoint, plus
 * the writes' bytes); the rest of the time its total is followed in memory.
 */
function followThreadBytes(budget: number) {
  const threads = new Map<string, { bytes: number; checkpoints: number }>();
  return {
    /** The thread was stored `bytes` of writes. */
    stored(threadId: string, bytes: number): void {
      const t = threads.get(threadId);
      if (t) t.bytes += bytes;
    },
    /** A checkpoint of about `bytes` was stored: whether to count the thread in the database. */
    checkpoint(threadId: string, bytes: number): boolean {
      const t = threads.get(threadId);
      if (!t) return true;
      t.bytes += bytes;
      t.checkpoints++;
      return t.bytes > budget || t.checkpoints >= RECOUNT_EVERY;
    },
    /** The thread was counted (and pruned): `bytes` are kept. */
    counted(threadId: string, bytes: number): void {
      threads.delete(threadId);
      threads.set(threadId, { bytes, checkpoints: 0 });
      if (threads.size > MAX_TRACKED_THREADS) threads.delete(threads.keys().next().value!);
    },
  };
}

/**
 * Deletes the writes stored against a checkpoint: those of the step whose result was refused.
 * Kept, they would make the thread look finished (its tasks all have writes) at a checkpoint
 * whose next step never got stored.
 */
async function discardWrites(
  saver: BaseCheckpointSaver,
  threadId: string,
  ns: string,
  checkpointId: string,
): Promise<void> {
  const db = sqliteDb(saver);
  if (db) {
    db.prepare(
      "DELETE FROM writes WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?",
    ).run(threadId, ns, checkpointId);
    return;
  }
  const pg = saver as { pool?: { query(sql: string, args: unknown[]): Promise<unknown> } } & {
    options?: { schema?: string };
  };
  if (isSaverKind(saver, "PostgresSaver") && typeof pg.pool?.query === "function") {
    const schema = (pg.options?.schema ?? "public").replace(/"/g, '""');
    await pg.pool.query(
      `DELETE FROM "${schema}".checkpoint_writes WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id = $3`,
      [threadId, ns, checkpointId],
    );
    return;
  }
  if (saver instanceof MemorySaver)
    delete saver.writes[JSON.stringify([threadId, ns, checkpointId])];
}

const sqliteDb = (saver: BaseCheckpointSaver): SqliteDb | undefined => {
  const db = (saver as { db?: SqliteDb }).db;
  return isSaverKind(saver, "SqliteSaver") && typeof db?.prepare === "function" ? db : undefined;
};
