/**
 * Making the checkpointer's tables once when several processes open a fresh database at the same
 * moment (replicas starting together, parallel CI jobs): LangGraph's `setup()`s (checkpointer and
 * store) run
 * `CREATE TABLE IF NOT EXISTS` and its migrations unguarded, and two at once collide in the
 * catalog (`duplicate key value violates unique constraint "pg_type_typname_nsp_index"`). A
 * session-level advisory lock taken around it makes the others wait, then find the tables made.
 */
import { lockKey } from "./thread-claims-postgres.js";

/** A session of its own (a pooled client or a `pg.Client`), held while the tables are made. */
interface PostgresSession {
  query(sql: string, params: unknown[]): Promise<unknown>;
}

/** Not a thread id: a key of its own in the same namespace as thread claims. */
const SETUP_LOCK = lockKey("\0checkpointer setup");

/** Runs `setup` holding the setup lock on `session`; the caller opened the session and closes it. */
export async function setupOnce(
  session: PostgresSession,
  setup: () => Promise<void>,
): Promise<void> {
  await session.query("SELECT pg_advisory_lock($1::bigint)", [SETUP_LOCK]);
  try {
    await setup();
  } finally {
    await session.query("SELECT pg_advisory_unlock($1::bigint)", [SETUP_LOCK]).catch(() => {});
  }
}
