/**
 * The server's records in the checkpointer's database: PostgreSQL (replicas share them) or the
 * SQLite file (a restart keeps them). Tables beside LangGraph's — `graphspec_server_threads`,
 * `graphspec_server_runs`, and the saved assistants' (sql-assistant-store.ts) — made on first use. Background runs wait in the runs table
 * (`status = 'pending'` with a request); a replica takes the oldest with
 * `FOR UPDATE SKIP LOCKED` on PostgreSQL, so two replicas never take the same run and neither
 * waits for the other's lock. SQLite has one writer at a time: the same UPDATE is atomic there.
 */

import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { inTurn } from "../compile/cpu-turns.js";
import { loadPeer, peerError } from "../peers/load-peer.js";
import { keepStatements, synchronousNormal, walInBackground } from "../run/sqlite-statements.js";
import type {
  QueuedRequest,
  ReplicaHeartbeats,
  RunRecord,
  RunStatus,
  ServerStore,
  StoredRun,
  ThreadRecord,
} from "./server-store.js";

/** The two databases, behind one `query`: `$n` placeholders, rows as objects. */
export interface Sql {
  readonly dialect: "postgres" | "sqlite";
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /**
   * One statement that reads and writes the queue, alone among replicas: on PostgreSQL in a
   * transaction holding an advisory lock, so its snapshot (taken after the lock) counts what
   * the others did; on SQLite one statement is atomic already (one writer at a time).
   */
  queueStatement(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /**
   * SQLite: statements in one transaction (one commit), each statement's rows. PostgreSQL writes
   * that go together are one statement instead (a data-modifying `WITH`): one round trip.
   */
  inTransaction?(
    statements: [sql: string, params: unknown[]][],
  ): Promise<Record<string, unknown>[][]>;
  close(): Promise<void>;
}

/** The queue's lock on PostgreSQL (beside the schema's, 727274001). */
const QUEUE_LOCK = 727274002;

/** Columns added after the table's first version, for tables made by older versions. */
function addColumns(table: string, columns: string[]): Statement[] {
  return columns.map((c) => ({
    postgres: `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${c}`,
    sqlite: { table, column: c.split(" ")[0]!, add: `ALTER TABLE ${table} ADD COLUMN ${c}` },
  }));
}

/** A schema statement, or one per dialect (SQLite has no ADD COLUMN IF NOT EXISTS). */
type Statement =
  | string
  | { postgres: string; sqlite: { table: string; column: string; add: string } };

const SCHEMA: Statement[] = [
  `CREATE TABLE IF NOT EXISTS graphspec_server_threads (
    thread_id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    metadata TEXT NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS graphspec_server_threads_updated
    ON graphspec_server_threads (updated_at)`,
  `CREATE TABLE IF NOT EXISTS graphspec_server_runs (
    run_id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL,
    record TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at TEXT NOT NULL,
    owner TEXT,
    request TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    error TEXT
  )`,
  `CREATE INDEX IF NOT EXISTS graphspec_server_runs_thread
    ON graphspec_server_runs (thread_id, created_at)`,
  // Whether a thread has a run queued or running, asked before each run: a thread's runs by status.
  `CREATE INDEX IF NOT EXISTS graphspec_server_runs_thread_status
    ON graphspec_server_runs (thread_id, status)`,
  `CREATE INDEX IF NOT EXISTS graphspec_server_runs_queue
    ON graphspec_server_runs (status, created_at)`,
  // Finished runs' requests that older versions kept (with their contexts, secrets included).
  `UPDATE graphspec_server_runs SET request = NULL
    WHERE request IS NOT NULL AND status NOT IN ('pending', 'running')`,
  // Whose run (tenant-caps.ts) and which replica alone may take it (its context in that memory).
  ...addColumns("graphspec_server_runs", ["tenant TEXT", "pinned TEXT"]),
  `CREATE INDEX IF NOT EXISTS graphspec_server_runs_tenant
    ON graphspec_server_runs (tenant, status)`,
  // Saved assistants (sql-assistant-store.ts): each tenant's, at their latest version, and
  // every version kept.
  `CREATE TABLE IF NOT EXISTS graphspec_server_assistants (
    tenant TEXT NOT NULL,
    assistant_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    body TEXT NOT NULL,
    secrets TEXT,
    PRIMARY KEY (tenant, assistant_id)
  )`,
  `CREATE TABLE IF NOT EXISTS graphspec_server_assistant_versions (
    tenant TEXT NOT NULL,
    assistant_id TEXT NOT NULL,
    version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    body TEXT NOT NULL,
    secrets TEXT,
    PRIMARY KEY (tenant, assistant_id, version)
  )`,
  // Each replica's promise of its next heartbeat, in milliseconds since the epoch (replica-heartbeat.ts).
  `CREATE TABLE IF NOT EXISTS graphspec_server_replicas (
    replica TEXT PRIMARY KEY,
    expires_at BIGINT NOT NULL
  )`,
];

export async function postgresSql(url: string): Promise<Sql> {
  const { default: pg } = await loadPeer("postgres", () => import("pg"));
  const pool = new pg.Pool({ connectionString: url, max: 5 });
  const sql: Sql = {
    dialect: "postgres",
    async query(text, params = []) {
      return (await pool.query(text, params)).rows;
    },
    async queueStatement(text, params = []) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await client.query(`SELECT pg_advisory_xact_lock(${QUEUE_LOCK})`);
        const rows = (await client.query(text, params)).rows;
        await client.query("COMMIT");
        return rows;
      } catch (e) {
        await client.query("ROLLBACK").catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
  // Two replicas starting together: one makes the tables, the other waits for its lock.
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(727274001)");
    for (const s of SCHEMA) await client.query(typeof s === "string" ? s : s.postgres);
  } finally {
    await client.query("SELECT pg_advisory_unlock(727274001)").catch(() => {});
    client.release();
  }
  return sql;
}

export async function sqliteSql(path: string): Promise<Sql> {
  mkdirSync(dirname(path), { recursive: true });
  // The checkpointer's own better-sqlite3 class: one SQLite library in the process.
  const { SqliteSaver } = await loadPeer(
    "sqlite",
    () => import("@langchain/langgraph-checkpoint-sqlite"),
  );
  let probe: InstanceType<typeof SqliteSaver>["db"];
  try {
    probe = SqliteSaver.fromConnString(":memory:").db;
  } catch (e) {
    throw peerError("sqlite", e) ?? e;
  }
  // Only its class is wanted: the in-memory database it opened is closed at once.
  probe.close();
  const Database = probe.constructor as new (
    file: string,
    opts?: { timeout?: number },
  ) => {
    pragma(s: string): unknown;
    exec(s: string): unknown;
    prepare(s: string): {
      reader: boolean;
      all(...p: unknown[]): unknown[];
      run(...p: unknown[]): unknown;
    };
    close(): unknown;
  };
  const db = keepStatements(new Database(path, { timeout: 5000 }));
  db.pragma("journal_mode = WAL");
  synchronousNormal(db);
  const stopWal = walInBackground(db, path);
  // What this connection deletes or erases (a finished run's request) is overwritten on disk.
  db.pragma("secure_delete = ON");
  for (const s of SCHEMA) {
    if (typeof s === "string") db.exec(s);
    else {
      const { table, column, add } = s.sqlite;
      const has = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).some(
        (c) => c.name === column,
      );
      if (!has) db.exec(add);
    }
  }
  // `$n` to `?`, in the order they appear: once per statement's text, as its compiling is.
  const converted = new Map<string, { q: string; order: number[] }>();
  const convert = (text: string) => {
    let c = converted.get(text);
    if (!c) {
      const order: number[] = [];
      const q = text.replace(/\$(\d+)/g, (_, n) => {
        order.push(Number(n) - 1);
        return "?";
      });
      c = { q, order };
      converted.set(text, c);
      if (converted.size > 200) converted.delete(converted.keys().next().value!);
    }
    return c;
  };
  const sqliteQuery = (text: string, params: unknown[]) => {
    const { q, order } = convert(text);
    const stmt = db.prepare(q);
    const args = order.map((i) => {
      const v = params[i];
      return typeof v === "boolean" ? Number(v) : v;
    });
    if (stmt.reader) return stmt.all(...args) as Record<string, unknown>[];
    stmt.run(...args);
    return [];
  };
  const transaction = (
    db as unknown as { transaction<F extends (...args: never[]) => unknown>(f: F): F }
  ).transaction((statements: [string, unknown[]][]) =>
    statements.map(([text, params]) => sqliteQuery(text, params)),
  ) as unknown as (statements: [string, unknown[]][]) => Record<string, unknown>[][];
  const sql: Sql = {
    dialect: "sqlite",
    queueStatement: (text, params) => sql.query(text, params),
    inTransaction: async (statements) => inTurn(() => transaction(statements)),
    // better-sqlite3 is synchronous: in a server's run or request, a statement waits for its
    // tenant's turn on the thread (cpu-turns.ts).
    query: async (text, params = []) => inTurn(() => sqliteQuery(text, params)),
    async close() {
      await stopWal();
      db.close();
    },
  };
  return sql;
}

const parse = <T>(v: unknown): T | undefined =>
  typeof v === "string" ? (JSON.parse(v) as T) : undefined;
const now = () => new Date().toISOString();

function threadOf(row: Record<string, unknown>): ThreadRecord {
  return {
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
    metadata: parse<Record<string, unknown>>(row.metadata) ?? {},
  };
}

function runOf(row: Record<string, unknown>): StoredRun {
  const record = parse<RunRecord>(row.record)!;
  record.status = row.status as RunStatus;
  return {
    record,
    storedThreadId: String(row.thread_id),
    tenant: String(row.tenant ?? ""),
    pinned: (row.pinned as string | null) ?? undefined,
    owner: (row.owner as string | null) ?? undefined,
    request: parse<QueuedRequest>(row.request),
    cancelRequested: Boolean(Number(row.cancel_requested)),
    error: parse(row.error),
  };
}

/** The rows of a tenant, by the (tenant, status) index; rows of older versions have none (`""`). */
const TENANT_IS = (param: string) => `(tenant = ${param} OR (tenant IS NULL AND ${param} = ''))`;

const RUN_COLUMNS =
  "run_id, thread_id, record, status, created_at, owner, request, cancel_requested, error, tenant, pinned";
const RUN_VALUES = "$1, $2, $3, $4, $5, $6, $7, 0, NULL, $8, $9";

const runRow = (run: StoredRun): unknown[] => [
  run.record.run_id,
  run.storedThreadId,
  JSON.stringify(run.record),
  run.record.status,
  run.record.created_at,
  run.owner ?? null,
  run.request ? JSON.stringify(run.request) : null,
  run.tenant,
  run.pinned ?? null,
];

export function sqlStore(sql: Sql): ServerStore {
  const pg = sql.dialect === "postgres";
  const store: ServerStore = {
    shared: true,
    async getThread(id) {
      const [row] = await sql.query("SELECT * FROM graphspec_server_threads WHERE thread_id = $1", [
        id,
      ]);
      return row && threadOf(row);
    },
    async ensureThread(id, metadata) {
      const t = now();
      // A new thread's row comes back from the insert: read again only when it was there already.
      const [row] = await sql.query(
        `INSERT INTO graphspec_server_threads (thread_id, created_at, updated_at, metadata)
         VALUES ($1, $2, $2, $3) ON CONFLICT (thread_id) DO NOTHING RETURNING *`,
        [id, t, JSON.stringify(metadata)],
      );
      return row ? threadOf(row) : (await store.getThread(id))!;
    },
    async patchThread(id, metadata) {
      const current = await store.ensureThread(id, {});
      await sql.query(
        "UPDATE graphspec_server_threads SET metadata = $2, updated_at = $3 WHERE thread_id = $1",
        [id, JSON.stringify({ ...current.metadata, ...metadata }), now()],
      );
      return (await store.getThread(id))!;
    },
    async touchThread(id) {
      await sql.query("UPDATE graphspec_server_threads SET updated_at = $2 WHERE thread_id = $1", [
        id,
        now(),
      ]);
    },
    async deleteThread(id) {
      const found = await store.getThread(id);
      await sql.query("DELETE FROM graphspec_server_threads WHERE thread_id = $1", [id]);
      return found !== undefined;
    },
    async threadIds(prefix) {
      const rows = await sql.query(
        "SELECT thread_id FROM graphspec_server_threads WHERE substr(thread_id, 1, length($1)) = $1",
        [prefix],
      );
      return rows.map((r) => String(r.thread_id));
    },
    async adoptThreads(found) {
      // Most searches after the first find nothing new: no read of the records then.
      if (!found.length) return;
      // One read of the records' times, then a write only for what is new or newer.
      const rows = await sql.query("SELECT thread_id, updated_at FROM graphspec_server_threads");
      const known = new Map(rows.map((r) => [String(r.thread_id), String(r.updated_at)]));
      for (const t of found) {
        const at = known.get(t.id);
        if (at !== undefined && at >= t.updatedAt) continue;
        await sql.query(
          `INSERT INTO graphspec_server_threads (thread_id, created_at, updated_at, metadata)
           VALUES ($1, $2, $2, $3) ON CONFLICT (thread_id) DO UPDATE SET updated_at = excluded.updated_at
           WHERE graphspec_server_threads.updated_at < excluded.updated_at`,
          [t.id, t.updatedAt, JSON.stringify(t.metadata)],
        );
      }
    },
    async searchThreads(q, page) {
      const where = ["substr(thread_id, 1, length($1)) = $1"];
      const params: unknown[] = [q.prefix];
      if (q.ids) {
        params.push(JSON.stringify(q.ids));
        where.push(
          pg
            ? `thread_id IN (SELECT jsonb_array_elements_text($${params.length}::jsonb))`
            : `thread_id IN (SELECT value FROM json_each($${params.length}))`,
        );
      }
      for (const [k, v] of Object.entries(q.metadata ?? {})) {
        params.push(k, JSON.stringify(v));
        const key = `$${params.length - 1}`;
        const val = `$${params.length}`;
        where.push(
          pg
            ? `(metadata::jsonb -> ${key}::text) = ${val}::jsonb`
            : `json_extract(metadata, '$.' || json_quote(${key})) IS json_extract(${val}, '$')`,
        );
      }
      params.push(page.limit, page.offset);
      const rows = await sql.query(
        `SELECT * FROM graphspec_server_threads WHERE ${where.join(" AND ")}
         ORDER BY updated_at DESC, thread_id LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      );
      return rows.map((r) => ({ id: String(r.thread_id), record: threadOf(r) }));
    },
    async putRun(run) {
      await sql.query(
        `INSERT INTO graphspec_server_runs (${RUN_COLUMNS}) VALUES (${RUN_VALUES})`,
        runRow(run),
      );
    },
    async queueRun(run, maxQueued) {
      const rows = await sql.queueStatement(
        `INSERT INTO graphspec_server_runs (${RUN_COLUMNS}) SELECT ${RUN_VALUES}
         WHERE (SELECT COUNT(*) FROM graphspec_server_runs
                WHERE status = 'pending' AND ${TENANT_IS("$8")}) < $10
         RETURNING run_id`,
        [...runRow(run), maxQueued],
      );
      return rows.length > 0;
    },
    async runningOf(tenant) {
      const [row] = await sql.query(
        `SELECT COUNT(*) AS n FROM graphspec_server_runs
         WHERE status = 'running' AND ${TENANT_IS("$1")}`,
        [tenant],
      );
      return Number(row?.n ?? 0);
    },
    async getRun(id) {
      const [row] = await sql.query("SELECT * FROM graphspec_server_runs WHERE run_id = $1", [id]);
      return row && runOf(row);
    },
    async runsOfThread(tid, q = {}) {
      const params: unknown[] = [tid];
      let where = "thread_id = $1";
      if (q.statuses) {
        where += ` AND status IN (${q.statuses.map((st) => `$${params.push(st)}`).join(", ")})`;
      }
      const limit = q.limit === undefined ? "" : ` LIMIT $${params.push(q.limit)}`;
      // By status, SQLite (no statistics) would still walk the thread's runs by creation time,
      // every one of them when none matches: `+` keeps it on the (thread, status) index.
      const order = q.statuses && !pg ? "+created_at" : "created_at";
      const rows = await sql.query(
        `SELECT * FROM graphspec_server_runs WHERE ${where} ORDER BY ${order} DESC, run_id${limit}`,
        params,
      );
      return rows.map(runOf);
    },
    async unfinishedOn(tid) {
      const rows = await sql.query(
        `SELECT status FROM graphspec_server_runs
         WHERE thread_id = $1 AND status IN ('pending', 'running')`,
        [tid],
      );
      return rows.map((r) => r.status as RunStatus);
    },
    async setRunStatus(id, status, extra = {}) {
      const params: unknown[] = [id, status, now()];
      // The record's `updated_at` moves with its status (as in memory): a thread's view compares
      // it with its newest checkpoint to say whether its failed last run still stands.
      const sets = [
        "status = $2",
        pg
          ? "record = (record::jsonb || jsonb_build_object('updated_at', $3::text))::text"
          : "record = json_set(record, '$.updated_at', $3)",
      ];
      // A finished run's request is erased: nothing will start it again.
      if (status !== "pending" && status !== "running") sets.push("request = NULL");
      if (extra.owner !== undefined) {
        params.push(extra.owner);
        sets.push(`owner = $${params.length}`);
      }
      if (extra.error !== undefined) {
        params.push(extra.error && JSON.stringify(extra.error));
        sets.push(`error = $${params.length}`);
      }
      const update = `UPDATE graphspec_server_runs SET ${sets.join(", ")} WHERE run_id = $1 RETURNING thread_id`;
      const touch = "UPDATE graphspec_server_threads SET updated_at = $3 WHERE thread_id";
      // The run's end and its thread's time: one write (one round trip, one commit).
      const [row] = !extra.touchThread
        ? await sql.query(update, params)
        : pg
          ? await sql.query(
              `WITH ended AS (${update}), touched AS (${touch} IN (SELECT thread_id FROM ended))
               SELECT thread_id FROM ended`,
              params,
            )
          : (
              await sql.inTransaction!([
                [update, params],
                [
                  `${touch} = (SELECT thread_id FROM graphspec_server_runs WHERE run_id = $1)`,
                  params,
                ],
              ])
            )[0]!;
      return row === undefined ? undefined : String(row.thread_id);
    },
    async requestCancel(id) {
      await sql.query("UPDATE graphspec_server_runs SET cancel_requested = 1 WHERE run_id = $1", [
        id,
      ]);
      // A run still queued is cancelled here: no replica will take it.
      await sql.query(
        "UPDATE graphspec_server_runs SET status = 'interrupted', request = NULL WHERE run_id = $1 AND status = 'pending'",
        [id],
      );
    },
    async cancelsFor(owner) {
      const rows = await sql.query(
        "SELECT run_id FROM graphspec_server_runs WHERE owner = $1 AND status = 'running' AND cancel_requested = 1",
        [owner],
      );
      return rows.map((r) => String(r.run_id));
    },
    async takeQueued(owner, maxRunning) {
      // Fair share: the tenants' running counts beside their queued runs; the oldest run of the
      // least busy tenant under its cap goes first, so a tenant's flood queues behind itself.
      const pick = `SELECT q.run_id FROM graphspec_server_runs q
        LEFT JOIN (SELECT COALESCE(tenant, '') AS tenant, COUNT(*) AS n
                   FROM graphspec_server_runs WHERE status = 'running'
                   GROUP BY COALESCE(tenant, '')) busy
          ON busy.tenant = COALESCE(q.tenant, '')
        WHERE q.status = 'pending' AND q.request IS NOT NULL
          AND (q.pinned IS NULL OR q.pinned = $1)
          AND COALESCE(busy.n, 0) < $2
          -- One run a thread, in the order they came (multitask_strategy "enqueue"): none while
          -- a run of its thread is running, nor before an older one queued on it.
          AND NOT EXISTS (SELECT 1 FROM graphspec_server_runs o
            WHERE o.thread_id = q.thread_id AND (o.status = 'running'
              OR (o.status = 'pending' AND (o.created_at < q.created_at
                OR (o.created_at = q.created_at AND o.run_id < q.run_id)))))
        ORDER BY COALESCE(busy.n, 0), q.created_at, q.run_id
        LIMIT 1${pg ? " FOR UPDATE OF q SKIP LOCKED" : ""}`;
      const rows = await sql.queueStatement(
        `UPDATE graphspec_server_runs SET status = 'running', owner = $1
         WHERE run_id = (${pick}) RETURNING *`,
        [owner, maxRunning],
      );
      return rows[0] && runOf(rows[0]);
    },
    async endPinned(replica, error) {
      await sql.query(
        `UPDATE graphspec_server_runs SET status = 'error', request = NULL, error = $2
         WHERE pinned = $1 AND status = 'pending'`,
        [replica, JSON.stringify(error)],
      );
    },
    async stillQueued(ids) {
      if (!ids.length) return [];
      const rows = await sql.query(
        pg
          ? `SELECT run_id FROM graphspec_server_runs
             WHERE status = 'pending' AND run_id IN (SELECT jsonb_array_elements_text($1::jsonb))`
          : `SELECT run_id FROM graphspec_server_runs
             WHERE status = 'pending' AND run_id IN (SELECT value FROM json_each($1))`,
        [JSON.stringify(ids)],
      );
      return rows.map((r) => String(r.run_id));
    },
    async requeue(id, request) {
      await sql.query(
        "UPDATE graphspec_server_runs SET status = 'pending', owner = NULL, request = $2 WHERE run_id = $1",
        [id, JSON.stringify(request)],
      );
    },
    async deleteRunsOfThread(tid) {
      await sql.query("DELETE FROM graphspec_server_runs WHERE thread_id = $1", [tid]);
    },
    replicas: heartbeats(sql),
    close: () => sql.close(),
  };
  return store;
}

function heartbeats(sql: Sql): ReplicaHeartbeats {
  // The database's clock: replicas on several machines need not agree on the time.
  const nowMs =
    sql.dialect === "postgres"
      ? "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint"
      : "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";
  return {
    async beat(replica, ttlMs) {
      await sql.query(
        `INSERT INTO graphspec_server_replicas (replica, expires_at) VALUES ($1, ${nowMs} + $2)
         ON CONFLICT (replica) DO UPDATE SET expires_at = excluded.expires_at`,
        [replica, Math.round(ttlMs)],
      );
    },
    async gone(replica) {
      await sql.query("DELETE FROM graphspec_server_replicas WHERE replica = $1", [replica]);
    },
    async orphans() {
      const rows = await sql.query(
        `SELECT r.* FROM graphspec_server_runs r
           JOIN graphspec_server_replicas h ON h.replica = r.owner
         WHERE r.status = 'running' AND h.expires_at < ${nowMs}`,
      );
      return rows.map(runOf);
    },
    async release(runId, owner, to) {
      const [status, request, error] =
        "request" in to
          ? ["pending", JSON.stringify(to.request), null]
          : ["error", null, JSON.stringify(to.error)];
      const rows = await sql.query(
        `UPDATE graphspec_server_runs SET status = $3, owner = NULL, request = $4, error = $5
         WHERE run_id = $1 AND owner = $2 AND status = 'running' RETURNING run_id`,
        [runId, owner, status, request, error],
      );
      return rows.length > 0;
    },
    async releasePinned(error) {
      const rows = await sql.query(
        `UPDATE graphspec_server_runs SET status = 'error', request = NULL, error = $1
         WHERE status = 'pending' AND pinned IN
           (SELECT replica FROM graphspec_server_replicas WHERE expires_at < ${nowMs})
         RETURNING pinned`,
        [JSON.stringify(error)],
      );
      return [...new Set(rows.map((r) => String(r.pinned)))];
    },
    async forgetDead(replica) {
      await sql.query(
        `DELETE FROM graphspec_server_replicas WHERE replica = $1 AND expires_at < ${nowMs}
           AND NOT EXISTS (SELECT 1 FROM graphspec_server_runs
                           WHERE owner = $1 AND status = 'running')`,
        [replica],
      );
    },
  };
}
