/**
 * Pruning a thread's stored checkpoints to its byte budget (`maxThreadBytes`, SQLite only): its
 * oldest checkpoints and their writes are deleted, the thread's newest always stays, so does the
 * newest of each subgraph run still under way, and what is kept has no gaps.
 *
 * A thread over its budget is pruned to `PRUNE_TO` of it, not to just under it: pruned to just
 * under, the next checkpoint took it over again, so a thread with a long history was pruned at
 * every step — and each prune read every row of the thread (in issue 23's soak, a normal tenant's
 * thread at its 64 MiB: 10 to 140 ms a checkpoint, 4 checkpoints a request, on the server's one
 * thread). Pruned to three quarters, it is pruned once per quarter of the budget written, and a
 * prune reads the thread's keys from the primary key's index and the rows it deletes, not every
 * row's bytes.
 */

/** What a thread keeps after a prune, as a share of its budget. */
export const PRUNE_TO = 3 / 4;

/** better-sqlite3's database, as LangGraph's SqliteSaver holds it. */
export interface SqliteDb {
  prepare(sql: string): {
    get(...args: unknown[]): unknown;
    all(...args: unknown[]): unknown[];
    run(...args: unknown[]): unknown;
  };
  transaction<T>(fn: () => T): () => T;
}

/**
 * Counts what the thread's checkpoints and writes take; over `budget`, deletes its oldest
 * checkpoints (and their writes) until what is left is within `budget * PRUNE_TO`. Answers the
 * bytes the thread keeps.
 */
export function pruneThread(db: SqliteDb, threadId: string, budget: number): number {
  // The cheap question first: SQLite reads a blob's length from its record header.
  const { total } = db
    .prepare(
      `SELECT (SELECT coalesce(sum(length(checkpoint) + length(metadata)), 0) FROM checkpoints WHERE thread_id = ?)
            + (SELECT coalesce(sum(length(value)), 0) FROM writes WHERE thread_id = ?) AS total`,
    )
    .get(threadId, threadId) as { total: number };
  if (total <= budget) return total;
  // Every checkpoint's key, from the primary key's index alone (no row is read), oldest first:
  // checkpoint ids are UUIDv6, ordered by time across namespaces (the index's own order is by
  // namespace first, so SQLite sorts them).
  const keys = db
    .prepare(
      "SELECT checkpoint_ns AS ns, checkpoint_id AS id FROM checkpoints WHERE thread_id = ? ORDER BY checkpoint_id",
    )
    .all(threadId) as { ns: string; id: string }[];
  const newest = new Map<string, string>();
  for (const k of keys) newest.set(k.ns, k.id);
  // A subgraph run stores its checkpoints under a namespace of its own (`node:<task id>`). Its
  // newest stays while it is newer than the thread's own newest: a subgraph of the current step,
  // maybe paused. An older one is of a run that ended; kept, a loop through a subgraph grew by a
  // namespace a step, past any budget.
  const current = newest.get("") ?? "";
  const stays = (k: { ns: string; id: string }) =>
    newest.get(k.ns) === k.id && (k.ns === "" || k.id > current);
  const bytesOf = db.prepare(
    `SELECT length(checkpoint) + length(metadata)
            + (SELECT coalesce(sum(length(value)), 0) FROM writes
               WHERE thread_id = @thread AND checkpoint_ns = @ns AND checkpoint_id = @id) AS bytes
     FROM checkpoints WHERE thread_id = @thread AND checkpoint_ns = @ns AND checkpoint_id = @id`,
  );
  const target = Math.floor(budget * PRUNE_TO);
  let kept = total;
  const drop: { ns: string; id: string }[] = [];
  for (const k of keys) {
    if (kept <= target) break;
    if (stays(k)) continue;
    kept -= (bytesOf.get({ thread: threadId, ns: k.ns, id: k.id }) as { bytes: number }).bytes;
    drop.push(k);
  }
  if (!drop.length) return kept;
  const deleteCheckpoint = db.prepare(
    "DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?",
  );
  const deleteWrites = db.prepare(
    "DELETE FROM writes WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?",
  );
  db.transaction(() => {
    for (const { ns, id } of drop) {
      deleteCheckpoint.run(threadId, ns, id);
      deleteWrites.run(threadId, ns, id);
    }
  })();
  return kept;
}
