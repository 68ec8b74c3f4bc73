/**
 * The threads a store holds, each with its latest checkpoint and the graph it ran — read with one
 * query over the checkpoint tables that touches no checkpoint or state blob, so that a thread
 * whose state grew huge cannot make listing (and deleting by prefix) fail for every thread. The
 * schemas are those of @langchain/langgraph-checkpoint-sqlite and -postgres; any other
 * checkpointer is read through its `list`, which loads every checkpoint.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { GRAPH_KEY } from "./checkpoint-keys.js";
import type { SqliteDatabase } from "./thread-claims-sqlite.js";

type Statement = ReturnType<SqliteDatabase["prepare"]>;

/** A thread as its store lists it. */
export interface StoredThread {
  threadId: string;
  /** The latest checkpoint of the thread's root graph. */
  checkpointId: string;
  /** The spec path stored with it, when it is a string. */
  graph?: string;
  /** When the latest checkpoint was written (ISO time). */
  updatedAt: string;
}

export interface ThreadListing {
  /** Every thread (with `threadId`: that one, when it exists). */
  list(threadId?: string): Promise<StoredThread[]>;
  /**
   * The threads whose root graph got a checkpoint after `cursor` (every thread when undefined),
   * each with its newest one; `touched`, the threads with other writes since (a failure kept, an
   * answer); and the cursor to ask from next — a listing kept elsewhere is brought
   * up to date reading only what was written since. Absent: the store cannot say what is new.
   */
  since?(
    cursor: string | undefined,
  ): Promise<{ threads: StoredThread[]; touched: string[]; cursor: string }>;
}

/**
 * When a checkpoint id was made: LangGraph's ids are UUIDv6, whose first 60 bits count 100 ns
 * since 1582-10-15 — the time the checkpoint was written, without reading the checkpoint.
 */
export function timeOfCheckpointId(id: string): string | undefined {
  const hex = id.replace(/-/g, "");
  if (!/^[0-9a-f]{32}$/i.test(hex) || hex[12] !== "6") return undefined;
  const ticks = BigInt(`0x${hex.slice(0, 12)}${hex.slice(13, 16)}`);
  const ms = Number(ticks / 10_000n) - 12_219_292_800_000;
  return new Date(ms).toISOString();
}

const GRAPH_PATH = `$.${GRAPH_KEY}`;

export function sqliteListing(db: SqliteDatabase): ThreadListing {
  // The latest root checkpoint per thread through the primary key; of its row only the metadata
  // (a small JSON document) is read — the graph path when it is valid JSON with a string there
  // (CASE evaluates lazily: invalid JSON never reaches json_type).
  const columns = `c.thread_id AS threadId, c.checkpoint_id AS checkpointId,
  CASE WHEN json_valid(CAST(c.metadata AS TEXT)) THEN
    CASE WHEN json_type(CAST(c.metadata AS TEXT), :path) = 'text'
    THEN json_extract(CAST(c.metadata AS TEXT), :path) END
  END AS graph`;
  // One thread: its newest row, read backwards along the primary key — grouping read every
  // checkpoint the thread has, on every run and state read of a thread with a long history.
  const sql = (one: boolean) =>
    one
      ? `SELECT ${columns} FROM checkpoints c
WHERE c.thread_id = :thread AND c.checkpoint_ns = ''
ORDER BY c.checkpoint_id DESC LIMIT 1`
      : `SELECT ${columns}
FROM checkpoints c
JOIN (SELECT thread_id, MAX(checkpoint_id) AS checkpoint_id FROM checkpoints
      WHERE checkpoint_ns = '' GROUP BY thread_id) latest
  ON latest.thread_id = c.thread_id AND latest.checkpoint_id = c.checkpoint_id
WHERE c.checkpoint_ns = ''`;
  type Row = { threadId: string; checkpointId: string; graph: string | null };
  // Each statement is prepared once (parsing and planning it again was work on every run and
  // state read: each asks for its thread), and a table found to exist is not asked about again
  // (the saver creates its tables once and never drops them) — until then, it is asked each time.
  const prepared = new Map<string, Statement>();
  const statement = (text: string): Statement => {
    let st = prepared.get(text);
    if (!st) {
      st = db.prepare(text);
      prepared.set(text, st);
    }
    return st;
  };
  const existing = new Set<string>();
  const exists = (table: string) => {
    if (existing.has(table)) return true;
    const found =
      statement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !==
      undefined;
    if (found) existing.add(table);
    return found;
  };
  const tableExists = () => exists("checkpoints");
  const writesExist = () => exists("writes");
  const read = (threadId?: string): Row[] => {
    if (!tableExists()) return [];
    const path = GRAPH_PATH;
    const params = threadId === undefined ? { path } : { path, thread: threadId };
    return statement(sql(threadId !== undefined)).all(params) as Row[];
  };
  return {
    async list(threadId) {
      return read(threadId).map((r) => stored(r.threadId, r.checkpointId, r.graph));
    },
    // SQLite's rowid grows with every row written (LangGraph's saver inserts, or replaces: a new
    // row): the rows past the cursor are those written since, read along the tables' own b-trees.
    // The cursor is `<checkpoints rowid>:<writes rowid>`; writes (a failure kept, an interrupt's
    // answer) change a thread's status without a checkpoint.
    async since(cursor) {
      if (!tableExists()) return { threads: [], touched: [], cursor: cursor ?? "0:0" };
      const last = (table: string) =>
        (statement(`SELECT COALESCE(MAX(rowid), 0) AS n FROM ${table}`).get() as { n: number }).n;
      const upto = { c: last("checkpoints"), w: writesExist() ? last("writes") : 0 };
      const next = `${upto.c}:${upto.w}`;
      if (cursor === undefined) return { threads: await this.list(), touched: [], cursor: next };
      const [afterC, afterW] = cursor.split(":").map(Number) as [number, number];
      const rows = statement(
        `SELECT ${columns} FROM checkpoints c
WHERE c.rowid > :after AND c.rowid <= :upto AND c.checkpoint_ns = ''`,
      ).all({ path: GRAPH_PATH, after: afterC, upto: upto.c }) as Row[];
      const newest = new Map<string, Row>();
      for (const r of rows) {
        const seen = newest.get(r.threadId);
        if (!seen || seen.checkpointId < r.checkpointId) newest.set(r.threadId, r);
      }
      const touched =
        upto.w > afterW
          ? (
              statement(
                "SELECT DISTINCT thread_id AS threadId FROM writes WHERE rowid > :after AND rowid <= :upto",
              ).all({ after: afterW, upto: upto.w }) as { threadId: string }[]
            ).map((r) => r.threadId)
          : [];
      return {
        threads: [...newest.values()].map((r) => stored(r.threadId, r.checkpointId, r.graph)),
        touched,
        cursor: next,
      };
    },
  };
}

/** The parts of a `pg` pool used here. */
export interface PostgresQueryable {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export function postgresListing(pool: PostgresQueryable, schema = "public"): ThreadListing {
  // `checkpoint` holds no channel values in this store (they are in checkpoint_blobs): its `ts`
  // is cheap to read and is the time LangGraph recorded.
  const sql = (one: boolean) => `
SELECT DISTINCT ON (thread_id) thread_id, checkpoint_id,
  CASE WHEN jsonb_typeof(metadata -> $1::text) = 'string' THEN metadata ->> $1::text END AS graph,
  checkpoint ->> 'ts' AS ts
FROM "${schema.replace(/"/g, '""')}".checkpoints
WHERE checkpoint_ns = ''${one ? " AND thread_id = $2" : ""}
ORDER BY thread_id, checkpoint_id DESC`;
  return {
    async list(threadId) {
      const { rows } = await pool.query(
        sql(threadId !== undefined),
        threadId === undefined ? [GRAPH_KEY] : [GRAPH_KEY, threadId],
      );
      return rows.map((r) =>
        stored(
          String(r.thread_id),
          String(r.checkpoint_id),
          typeof r.graph === "string" ? r.graph : null,
          typeof r.ts === "string" ? r.ts : undefined,
        ),
      );
    },
  };
}

/**
 * Any checkpointer: through `list`, newest checkpoint first (every checkpoint is loaded). For one
 * thread, only its newest root checkpoint is asked for: every run and state read asks, and the
 * thread's whole history (each checkpoint deserialized) grew with every step it took.
 */
export function genericListing(saver: BaseCheckpointSaver): ThreadListing {
  return {
    async list(threadId) {
      const seen = new Map<string, StoredThread>();
      const [config, options] =
        threadId === undefined
          ? [{}, undefined]
          : [{ configurable: { thread_id: threadId, checkpoint_ns: "" } }, { limit: 1 }];
      for await (const t of saver.list(config, options)) {
        const id = String(t.config.configurable?.thread_id);
        if (seen.has(id) || t.config.configurable?.checkpoint_ns) continue;
        const graph = (t.metadata as Record<string, unknown> | undefined)?.[GRAPH_KEY];
        const checkpointId = String(t.config.configurable?.checkpoint_id);
        seen.set(
          id,
          stored(id, checkpointId, typeof graph === "string" ? graph : null, t.checkpoint.ts),
        );
      }
      return [...seen.values()];
    },
  };
}

function stored(
  threadId: string,
  checkpointId: string,
  graph: string | null,
  ts?: string,
): StoredThread {
  return {
    threadId,
    checkpointId,
    ...(graph !== null ? { graph } : {}),
    updatedAt: ts ?? timeOfCheckpointId(checkpointId) ?? "",
  };
}
