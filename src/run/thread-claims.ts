/**
 * One run per thread: a run (or resume, or stream) claims its thread for as long as it writes
 * checkpoints, and a second one on a busy thread is refused at once (`thread-busy`). Each store
 * has a claim that holds across everything that shares it and dies with its process:
 * SQLite a lock row (thread-claims-sqlite.ts), PostgreSQL an advisory lock
 * (thread-claims-postgres.ts), and the in-memory checkpointer — or one a caller passes in — a
 * claim inside this process (here).
 */
import type { RunError } from "./result.js";

export interface ThreadClaim {
  /** Gives the thread back, also after the store has been closed; called once (thread-guard.ts). */
  release(): Promise<void>;
}

/** The thread is held by another run; `holder` says by whom, when the store knows. */
export interface BusyThread {
  busy: true;
  holder?: string;
}

export interface ThreadClaims {
  /** Claims a thread, or says it is busy — at once, never waiting for the other run. */
  claim(threadId: string): Promise<ThreadClaim | BusyThread>;
  /** Ends what the claims hold open (a PostgreSQL session); claims held are given back. */
  close(): Promise<void>;
}

export const isBusy = (c: ThreadClaim | BusyThread): c is BusyThread =>
  (c as BusyThread).busy === true;

/** The RunError of a run refused because its thread is busy. */
export const threadBusy = (threadId: string, holder?: string): RunError => ({
  code: "thread-busy",
  phase: "input",
  message: `thread \`${threadId}\` is busy: another run ${holder ? `(${holder}) ` : ""}is running or resuming it`,
  hint: "wait for that run to finish (`graphspec threads show` tells where the thread stands), then try again",
});

/** Threads claimed in this process, per checkpointer object: a claim cannot outlive its process. */
const claimedIn = new WeakMap<object, Set<string>>();

/**
 * Claims inside this process, keyed by the checkpointer object: two executors sharing one
 * checkpointer object exclude each other; other processes using the same storage are not seen.
 */
export function processClaims(store: object): ThreadClaims {
  let held = claimedIn.get(store);
  if (!held) {
    held = new Set();
    claimedIn.set(store, held);
  }
  const claims = held;
  return {
    async claim(threadId) {
      if (claims.has(threadId)) return { busy: true, holder: "in this process" };
      claims.add(threadId);
      return {
        async release() {
          claims.delete(threadId);
        },
      };
    },
    async close() {},
  };
}
