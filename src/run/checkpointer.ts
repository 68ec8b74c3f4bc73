/**
 * Where runs keep their checkpoints: `memory` (this process only); `sqlite` — the default, a file
 * (`.graphspec/state.db`) through LangGraph's official SQLite checkpointer, so paused and failed
 * runs survive the process; `postgres` — LangGraph's official PostgreSQL checkpointer on
 * `DATABASE_URL`, shared by every process that points at it. Or any LangGraph checkpointer.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type BaseCheckpointSaver, MemorySaver } from "@langchain/langgraph";
import { loadPeer, peerError } from "../peers/load-peer.js";
import { scrubber } from "../spec/secrets.js";
import { ALLOWED_TOOLS_KEY, CONTEXT_KEY, GRAPH_KEY, MODEL_KEY } from "./checkpoint-keys.js";
import { CheckpointerError } from "./checkpointer-error.js";
import { setupOnce } from "./postgres-setup.js";
import { guardSecrets } from "./secret-guard.js";
import { keepStatements, synchronousNormal, walInBackground } from "./sqlite-statements.js";
import { processClaims, type ThreadClaims } from "./thread-claims.js";
import { postgresClaims } from "./thread-claims-postgres.js";
import { type OpenSqlite, type SqliteDatabase, sqliteClaims } from "./thread-claims-sqlite.js";
import {
  genericListing,
  postgresListing,
  sqliteListing,
  type ThreadListing,
} from "./thread-listing.js";

export { CONTEXT_KEY, GRAPH_KEY };

export type CheckpointerChoice = "memory" | "sqlite" | "postgres" | BaseCheckpointSaver;

export interface CheckpointerOptions {
  sqlitePath?: string;
  /** The PostgreSQL connection string. Default: `DATABASE_URL`. */
  databaseUrl?: string;
}

export interface OpenCheckpointer {
  saver: BaseCheckpointSaver;
  /** Whether checkpoints outlive this process. */
  durable: boolean;
  /** One run per thread: claims that hold wherever the checkpoints are seen (thread-claims.ts). */
  claims: ThreadClaims;
  /** The threads, read without loading checkpoints where the store allows (thread-listing.ts). */
  listing: ThreadListing;
  /** Releases connections (a PostgreSQL pool keeps a process alive until it is ended). */
  close(): Promise<void>;
}

export const DEFAULT_SQLITE_PATH = ".graphspec/state.db";

const tagged = new WeakSet<BaseCheckpointSaver>();

/**
 * LangGraph.js does not copy a run's config into checkpoint metadata; this puts the thread's
 * graph, context and chosen model there, so `threads list` and `resume` without a spec know what a thread ran.
 */
function tagging(saver: BaseCheckpointSaver): BaseCheckpointSaver {
  // In place, so once: both wrappers read all they need from each call's config, so one serves
  // every executor given this object (wrapped again, a refused executor's every call added a layer).
  if (tagged.has(saver)) return saver;
  tagged.add(saver);
  guardSecrets(saver, [GRAPH_KEY]); // wrapped first, so the tags added below are masked too
  const put = saver.put.bind(saver);
  saver.put = (config, checkpoint, metadata, versions) => {
    const tags: Record<string, unknown> = {};
    for (const key of [GRAPH_KEY, CONTEXT_KEY, MODEL_KEY, ALLOWED_TOOLS_KEY]) {
      const value = config.configurable?.[key];
      if (value !== undefined) tags[key] = value;
    }
    return put(config, checkpoint, { ...metadata, ...tags } as typeof metadata, versions);
  };
  return saver;
}

const noClose = async () => {};

async function openPostgres(url: string | undefined): Promise<OpenCheckpointer> {
  if (!url) {
    throw new CheckpointerError(
      "the postgres checkpointer needs a database, and DATABASE_URL is not set",
      "set DATABASE_URL=postgresql://user:password@host:5432/db (the tables are made on first use)",
    );
  }
  const [{ PostgresSaver }, { default: pg }] = await loadPeer("postgres", () =>
    Promise.all([import("@langchain/langgraph-checkpoint-postgres"), import("pg")]),
  );
  // Our own pool (PostgresSaver.fromConnString makes the same one, but keeps it private): thread
  // listing queries it directly.
  const pool = new pg.Pool({ connectionString: url });
  // An idle pooled connection the server ends (a restart, an admin's pg_terminate_backend) is
  // reported as the pool's `error`; unheard, that event would be thrown and end the process. The
  // pool has already dropped the connection: the next query opens another.
  pool.on("error", () => {});
  const saver = new PostgresSaver(pool);
  try {
    // Creates the tables (and runs LangGraph's migrations) when they are not there yet.
    const session = await pool.connect();
    try {
      await setupOnce(session, () => saver.setup());
    } finally {
      session.release();
    }
  } catch (e) {
    await saver.end().catch(() => {});
    throw unusable(url, e);
  }
  // The session thread claims are taken on (thread-claims-postgres.ts): one per executor.
  const claims = postgresClaims(async () => {
    const session = new pg.Client({ connectionString: url });
    try {
      await session.connect();
    } catch (e) {
      throw unusable(url, e);
    }
    return session;
  });
  return {
    saver: tagging(saver),
    durable: true,
    claims,
    listing: postgresListing(pool),
    close: async () => {
      await claims.close();
      await saver.end();
    },
  };
}

/** A database that cannot be used, named by host, port and database — never the password. */
function unusable(url: string, e: unknown): CheckpointerError {
  let where = "the database";
  try {
    const u = new URL(url);
    where = `${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {}
  const reason = scrubber([url, ...passwordOf(url)])(String((e as Error)?.message ?? e));
  return new CheckpointerError(
    `cannot use PostgreSQL at ${where}: ${reason.split("\n")[0]}`,
    "check that the server runs and DATABASE_URL (host, port, user, password, database) is right",
  );
}

const passwordOf = (url: string): string[] => {
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password ? [password] : [];
  } catch {
    return [];
  }
};

export async function openCheckpointer(
  choice: CheckpointerChoice,
  options: CheckpointerOptions = {},
): Promise<OpenCheckpointer> {
  if (choice === "memory") return inProcess(new MemorySaver(), false);
  if (choice === "sqlite") {
    const path = resolve(options.sqlitePath ?? DEFAULT_SQLITE_PATH);
    mkdirSync(dirname(path), { recursive: true });
    // Loaded only when used: better-sqlite3 is a native module, opened by the first database.
    const { SqliteSaver } = await loadPeer(
      "sqlite",
      () => import("@langchain/langgraph-checkpoint-sqlite"),
    );
    let saver: InstanceType<typeof SqliteSaver>;
    try {
      saver = SqliteSaver.fromConnString(path);
    } catch (e) {
      throw peerError("sqlite", e) ?? e;
    }
    const db = keepStatements(saver.db as SqliteDatabase);
    synchronousNormal(saver.db);
    const stopWal = walInBackground(saver.db, path);
    // The checkpointer's own better-sqlite3 class: one SQLite library in the process.
    const Database = saver.db.constructor as new (
      ...args: Parameters<OpenSqlite>
    ) => SqliteDatabase;
    return {
      saver: tagging(saver),
      durable: true,
      claims: sqliteClaims(db, path, (file, opts) => new Database(file, opts)),
      listing: sqliteListing(db),
      close: async () => {
        await stopWal();
        db.close();
      },
    };
  }
  if (choice === "postgres") return openPostgres(options.databaseUrl ?? process.env.DATABASE_URL);
  return inProcess(choice, !(choice instanceof MemorySaver));
}

/** A checkpointer graphspec knows nothing of (or memory): claims inside this process, listing through `list`. */
const inProcess = (saver: BaseCheckpointSaver, durable: boolean): OpenCheckpointer => ({
  saver: tagging(saver),
  durable,
  claims: processClaims(saver),
  listing: genericListing(saver),
  close: noClose,
});
