/**
 * Thread claims in a SQLite checkpoint file: a row per claimed thread in
 * `graphspec_thread_claims`, taken in an immediate (write-locked) transaction so two processes
 * cannot both take it.
 *
 * A row must not outlive its process (kill -9 leaves no `finally`). So each process that claims
 * holds a *holder file* next to the database (`state.db-holders/<uuid>`), locked by an open
 * exclusive SQLite transaction for as long as the process lives; the row names its holder. The
 * operating system drops that lock when the process dies, however it dies: a row whose holder file
 * can be locked (or is gone) belongs to a dead process and is taken over. Unlike a pid, this
 * cannot be fooled by pid reuse, another host name or another pid namespace sharing the file.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { ThreadClaims } from "./thread-claims.js";

/** The parts of a better-sqlite3 database used here. */
interface Statement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
}
export interface SqliteDatabase {
  open: boolean;
  exec(sql: string): unknown;
  prepare(sql: string): Statement;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): { immediate(...args: A): R };
  close(): unknown;
}
/**
 * Opens a database file: the checkpointer's own better-sqlite3 class, so there is one SQLite
 * library in the process (SQLite sees the locks of its own connections only).
 */
export type OpenSqlite = (
  path: string,
  options?: { timeout?: number; fileMustExist?: boolean },
) => SqliteDatabase;

interface ClaimRow {
  holder: string;
  pid: number;
  host: string;
  claimed_at: string;
}

const HOLDER_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** This process's holder file, per holders directory (its connection is never closed: the lock is the point). */
const ownHolders = new Map<string, { name: string; db: SqliteDatabase }>();

/** Takes a holder file's lock: an exclusive transaction, its journal in memory (no file beside it). */
const lock = (db: SqliteDatabase) => {
  db.exec("PRAGMA journal_mode = MEMORY");
  db.exec("BEGIN EXCLUSIVE");
};

/** At exit: this process's holder files go (a process killed before leaves them to the next sweep). */
function dropOwnHolders(): void {
  for (const [dir, { name, db }] of ownHolders) {
    db.close();
    rmSync(join(dir, name), { force: true });
  }
  ownHolders.clear();
}

function ownHolder(open: OpenSqlite, dir: string): string {
  let holder = ownHolders.get(dir);
  if (!holder) {
    mkdirSync(dir, { recursive: true });
    // Holder files of processes that died without cleaning up (kill -9) go first.
    for (const other of readdirSync(dir)) {
      try {
        holderLives(open, dir, other);
      } catch {
        // Left for a later sweep: a file that cannot be probed is not ours to remove.
      }
    }
    const name = randomUUID();
    // Locked under a name no one probes, then renamed into place (the lock stays with the file):
    // a holder file is never seen unlocked while its process lives.
    const draft = join(dir, `.${name}.draft`);
    const db = open(draft);
    lock(db);
    renameSync(draft, join(dir, name));
    holder = { name, db };
    if (!ownHolders.size) process.once("exit", dropOwnHolders);
    ownHolders.set(dir, holder);
  }
  return holder.name;
}

/** Whether the process that holds holder file `name` still lives; a dead one's file is removed. */
function holderLives(open: OpenSqlite, dir: string, name: string): boolean {
  // A name this code did not write is no path to open: the row is not a live claim.
  if (!HOLDER_NAME.test(name)) return false;
  const path = join(dir, name);
  let probe: SqliteDatabase;
  try {
    probe = open(path, { timeout: 0, fileMustExist: true });
  } catch (e) {
    if (!existsSync(path)) return false;
    throw e;
  }
  try {
    lock(probe);
    probe.exec("ROLLBACK");
  } catch (e) {
    if ((e as { code?: string }).code === "SQLITE_BUSY") return true;
    throw e;
  } finally {
    probe.close();
  }
  rmSync(path, { force: true });
  return false;
}

export function sqliteClaims(db: SqliteDatabase, path: string, open: OpenSqlite): ThreadClaims {
  const dir = `${path}-holders`;
  let take: ((threadId: string, claim: string, holder: string) => ClaimRow | undefined) | undefined;
  const prepare = () => {
    db.exec(`CREATE TABLE IF NOT EXISTS graphspec_thread_claims (
  thread_id TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  claim TEXT NOT NULL,
  pid INTEGER NOT NULL,
  host TEXT NOT NULL,
  claimed_at TEXT NOT NULL
)`);
    const read = db.prepare(
      "SELECT holder, pid, host, claimed_at FROM graphspec_thread_claims WHERE thread_id = ?",
    );
    const write = db.prepare(
      "INSERT OR REPLACE INTO graphspec_thread_claims (thread_id, holder, claim, pid, host, claimed_at) VALUES (?, ?, ?, ?, ?, ?)",
    );
    const inTransaction = db.transaction((threadId: string, claim: string, holder: string) => {
      const row = read.get(threadId) as ClaimRow | undefined;
      if (row && (row.holder === holder || holderLives(open, dir, row.holder))) return row;
      write.run(threadId, holder, claim, process.pid, hostname(), new Date().toISOString());
      return undefined;
    });
    return (threadId: string, claim: string, holder: string) =>
      inTransaction.immediate(threadId, claim, holder);
  };
  return {
    async claim(threadId) {
      take ??= prepare();
      const claim = randomUUID();
      const row = take(threadId, claim, ownHolder(open, dir));
      if (row) {
        const where =
          row.holder === ownHolders.get(dir)?.name
            ? "in this process"
            : `pid ${row.pid} on ${row.host}`;
        return { busy: true, holder: `${where}, since ${row.claimed_at}` };
      }
      return {
        async release() {
          // The database is open: an executor closes it only once its runs have ended (call-gate.ts).
          db.prepare("DELETE FROM graphspec_thread_claims WHERE thread_id = ? AND claim = ?").run(
            threadId,
            claim,
          );
        },
      };
    },
    async close() {},
  };
}
