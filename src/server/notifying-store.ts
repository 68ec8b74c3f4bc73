/**
 * The server's records, telling graphspec dev's page (page-events.ts) which thread a write
 * touched: every change to a thread or its runs goes through the store, so wrapping it catches
 * them all — the routes' and the run registry's, now and later — with none of them knowing.
 */
import type { ServerStore, StoredRun } from "./server-store.js";

/** The thread a write touched, from its arguments or what it answered. */
type ThreadOf = (
  store: ServerStore,
  args: unknown[],
  out: unknown,
) => Promise<string | undefined> | string | undefined;

const first: ThreadOf = (_s, args) => args[0] as string;
const ofRun: ThreadOf = (_s, args) => (args[0] as StoredRun).storedThreadId;
const ofRunId: ThreadOf = async (s, args) => (await s.getRun(args[0] as string))?.storedThreadId;
// The write answers its run's thread: no record read back on every run's end.
const answered: ThreadOf = (_s, _args, out) => out as string | undefined;

/** The writes, and where each finds the thread it touched. */
const WRITES: Partial<Record<keyof ServerStore, ThreadOf>> = {
  ensureThread: first,
  patchThread: first,
  touchThread: first,
  deleteThread: first,
  deleteRunsOfThread: first,
  putRun: ofRun,
  queueRun: ofRun,
  setRunStatus: answered,
  requeue: ofRunId,
};

export function notifyingStore(
  store: ServerStore,
  changed: (storedThreadId: string) => void,
): ServerStore {
  // One wrapper per method, made on first use: the store is called on every request.
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      const known = wrapped.get(key);
      if (known) return known;
      const threadOf = WRITES[key as keyof ServerStore];
      const wrapper = threadOf ? notifying(target, value, threadOf, changed) : value.bind(target);
      wrapped.set(key, wrapper);
      return wrapper;
    },
  });
}

/** A write that, once done, tells which thread it touched. */
function notifying(
  target: ServerStore,
  write: (...args: unknown[]) => unknown,
  threadOf: ThreadOf,
  changed: (storedThreadId: string) => void,
) {
  return async (...args: unknown[]) => {
    const out = await write.apply(target, args);
    // After the write, so the page reads what it wrote; a failed look-up costs a nudge only.
    const thread = await Promise.resolve(threadOf(target, args, out)).catch(() => undefined);
    if (thread !== undefined) changed(thread);
    return out;
  };
}
