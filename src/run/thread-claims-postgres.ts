/**
 * Thread claims in PostgreSQL: a session-level advisory lock (`pg_try_advisory_lock`) keyed by a
 * 64-bit hash of the thread id, taken on a session of its own (one per executor). Every process
 * and machine on the database sees it, and the server drops it when the session ends — when the
 * process exits or is killed, its connection closes and its claims go with it.
 *
 * Advisory locks are re-entrant within a session, so claims of this executor are also kept in a
 * set: a second run on a thread this session holds is refused here, before the server is asked.
 */
import { createHash } from "node:crypto";
import type { BusyThread, ThreadClaim, ThreadClaims } from "./thread-claims.js";

/** The parts of a `pg` client used here. */
export interface PostgresSession {
  query(sql: string, params: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  on(event: "error", listener: (e: Error) => void): unknown;
  end(): Promise<void>;
}

/** The advisory lock key of a thread: 64 bits of SHA-256, namespaced so other users of advisory locks on the database do not collide with ours by accident. */
export const lockKey = (threadId: string): string =>
  createHash("sha256")
    .update(`graphspec thread\0${threadId}`)
    .digest()
    .readBigInt64BE(0)
    .toString();

export function postgresClaims(connect: () => Promise<PostgresSession>): ThreadClaims {
  let session: Promise<PostgresSession> | undefined;
  const held = new Set<string>();

  const current = (): Promise<PostgresSession> => {
    if (!session) {
      const opening = connect().then((s) => {
        // A session that breaks has lost its locks on the server; the next claim opens another.
        s.on("error", () => {
          if (session === opening) session = undefined;
        });
        return s;
      });
      opening.catch(() => {
        if (session === opening) session = undefined;
      });
      session = opening;
    }
    return session;
  };

  /** Whether `owner` got the thread's lock. */
  const taken = async (owner: PostgresSession, key: string): Promise<boolean> => {
    const { rows } = await owner.query("SELECT pg_try_advisory_lock($1::bigint) AS taken", [key]);
    return Boolean(rows[0]?.taken);
  };

  /**
   * Takes the lock on the current session: the session, and whether it got it. A session the
   * server has just ended (a failover, `pg_terminate_backend`) may not have said so yet: the query
   * sent on it fails ("terminating connection", "Connection terminated unexpectedly") before its
   * `error` event. So a failed lock is asked once more, once the session has answered one more
   * query or failed it: by then an ended session has been dropped and the lock goes to a new one
   * (its locks went with it on the server); a session that still answers is asked again.
   */
  const lock = async (key: string): Promise<[PostgresSession, boolean]> => {
    const owner = await current();
    try {
      return [owner, await taken(owner, key)];
    } catch {
      await owner.query("SELECT 1", []).catch(() => {});
      const next = await current();
      return [next, await taken(next, key)];
    }
  };

  return {
    async claim(threadId): Promise<ThreadClaim | BusyThread> {
      if (held.has(threadId)) return { busy: true, holder: "in this process" };
      held.add(threadId);
      const key = lockKey(threadId);
      let owner: PostgresSession;
      try {
        let got: boolean;
        [owner, got] = await lock(key);
        if (!got) {
          held.delete(threadId);
          return { busy: true };
        }
      } catch (e) {
        held.delete(threadId);
        throw e;
      }
      return {
        async release() {
          try {
            // Only the session that took the lock can give it back; a broken one already has.
            if ((await session?.catch(() => undefined)) === owner) {
              await owner.query("SELECT pg_advisory_unlock($1::bigint)", [key]);
            }
          } catch {
            // The session broke: the server has dropped the lock with it.
          } finally {
            held.delete(threadId);
          }
        },
      };
    },
    async close() {
      const open = session;
      session = undefined;
      held.clear();
      await (await open?.catch(() => undefined))?.end().catch(() => {});
    },
  };
}
