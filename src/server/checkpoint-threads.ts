/**
 * Threads the checkpointer holds but the records do not — a restart whose records were in memory,
 * `graphspec run --thread` writing to the same database — adopted into the records, so that
 * `threads.search` (which pages through the records, newest update first) lists every thread.
 * The first search lists the checkpointer's threads (one query, no checkpoint loaded:
 * thread-listing.ts); each later one reads only the checkpoints written since (SQLite's rowid),
 * so a search costs what is new, not the whole database.
 */
import { resolve } from "node:path";
import type { ServerParts } from "./server-parts.js";

export interface CheckpointThreads {
  /** Brings the records up to the checkpointer's threads. */
  adopt(): Promise<void>;
}

export function checkpointThreads(
  p: Pick<ServerParts, "exec" | "graphs" | "store" | "statuses">,
): CheckpointThreads {
  /** Where the next reading starts; `done`: the checkpointer cannot say what is new (read once). */
  let at: { cursor: string | undefined } | "done" | undefined;
  let going: Promise<void> | undefined;
  /** Spec paths to graph ids, read again when a thread names a path not in it. */
  let names = new Map<string, string>();

  const nameOf = async (graph: string | undefined) => {
    if (graph === undefined) return undefined;
    const path = resolve(graph);
    if (!names.has(path))
      names = new Map((await p.graphs.list()).map((g) => [resolve(g.path), g.name]));
    return names.get(path);
  };

  async function once(): Promise<void> {
    if (at === "done") return;
    const { threads, touched, cursor } = await p.exec.threadsSince(at?.cursor);
    // What changed may have changed its status: a search by status reads it again.
    for (const id of touched) p.statuses.evict(id);
    const adopted = [];
    for (const t of threads) {
      p.statuses.evict(t.threadId);
      const name = await nameOf(t.graph);
      adopted.push({
        id: t.threadId,
        metadata: name === undefined ? {} : { graph_id: name },
        updatedAt: t.updatedAt,
      });
    }
    await p.store.adoptThreads(adopted);
    at = cursor === undefined ? "done" : { cursor };
  }

  return {
    // Searches at the same time wait for one reading.
    adopt(): Promise<void> {
      going ??= once().finally(() => {
        going = undefined;
      });
      return going;
    },
  };
}
