/**
 * Each thread's status as a search by status last read it (its view: the state, its failure, its
 * last run), so that the next such search reads again only the threads that changed — not every
 * thread of the tenant. An entry goes when the thread changes: on every write to its records in
 * this process (the store is wrapped, notifying-store.ts), on the checkpointer's writes found since
 * the last search (checkpoint-threads.ts: `graphspec run --thread` on the same SQLite file), and
 * when its record's `updated_at` moved (another replica's run ended). `busy` is never kept.
 */
export interface ThreadStatusMemo {
  /** The status kept for the thread at this `updated_at` of its record, if any. */
  get(storedId: string, updatedAt: string): string | undefined;
  set(storedId: string, updatedAt: string, status: string): void;
  evict(storedId: string): void;
}

/** Past `max` threads, the oldest kept goes first (a search then reads that thread again). */
export function threadStatusMemo(max = 100_000): ThreadStatusMemo {
  const kept = new Map<string, { updatedAt: string; status: string }>();
  return {
    get(id, updatedAt) {
      const k = kept.get(id);
      return k && k.updatedAt === updatedAt ? k.status : undefined;
    },
    set(id, updatedAt, status) {
      if (status === "busy") return;
      kept.delete(id);
      kept.set(id, { updatedAt, status });
      if (kept.size > max) kept.delete(kept.keys().next().value!);
    },
    evict(id) {
      kept.delete(id);
    },
  };
}
