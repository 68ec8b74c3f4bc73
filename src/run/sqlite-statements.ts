/**
 * How graphspec uses its SQLite connections on the one thread they share with everything else:
 * statements compiled once, and commits not flushed to disk one by one.
 *
 * Prepared statements are kept per SQLite connection. better-sqlite3 compiles a statement on every
 * `prepare`, and LangGraph's SqliteSaver (and the server's records) prepare each statement
 * again on every call: in the soak of issue 23 compiling took 6.6 s of the server's 135 s of
 * CPU, on its one thread. So `prepare` answers the statement compiled before for the same SQL.
 *
 * That is safe as the statements are used here: each call runs to its end (`get`, `all`, `run`;
 * none is iterated while another call could take it), and none is switched into another mode
 * (`pluck`, `raw`, `expand`, `bind`), which would stay on the shared statement. SQLite compiles a
 * kept statement again by itself when the schema changes under it.
 */

import { createRequire } from "node:module";
import { resolve } from "node:path";
import { Worker } from "node:worker_threads";

/** Distinct statements kept per connection; past it the least recently used goes. */
const MAX_STATEMENTS = 200;

interface Preparing {
  prepare(sql: string): unknown;
}

const kept = new WeakSet<object>();

/** Makes `db.prepare` reuse statements (in place; once per connection). */
export function keepStatements<T extends Preparing>(db: T): T {
  if (kept.has(db)) return db;
  kept.add(db);
  const prepare = db.prepare.bind(db);
  const statements = new Map<string, unknown>();
  db.prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (statement) statements.delete(sql);
    else statement = prepare(sql);
    statements.set(sql, statement);
    if (statements.size > MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
    return statement;
  };
  return db;
}

/**
 * `synchronous = NORMAL` on a connection in WAL mode (LangGraph's SqliteSaver and the server's
 * records are). SQLite's default, FULL, flushes the log to disk at every commit — every
 * checkpoint, every step's writes, every run record — and better-sqlite3 waits for it on the
 * process's one thread: 7.8 ms a commit on this project's test machine (0.1 ms with NORMAL), far
 * more when the disk is busy, with no other run or request served meanwhile. With NORMAL the log
 * is flushed at checkpoints of the log: a commit survives the process being killed (the log is in
 * the operating system's hands); a power cut or a crash of the operating system may lose the last
 * commits, never the database (SQLite's documentation: "WAL mode is safe from corruption with
 * synchronous=NORMAL").
 */
export function synchronousNormal(db: { pragma(source: string): unknown }): void {
  // WAL first (LangGraph's saver sets it too, on first use): NORMAL is only safe with it.
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
}

/**
 * How often the background connection folds the log into the database. A commit that meets a fold
 * can wait on SQLite's locks: at every 250 ms, the server's first write of a run (its thread's
 * record) took 3.3 ms on average instead of 0.4 ms without folding, and the statements of a
 * `serve` run 20-23 ms against 10-17 ms at every second (bench:server, SQLite wait, sequential,
 * load average ~26). Once a second bounds the log at a second of writes.
 */
const WAL_CHECKPOINT_MS = 1000;

/** The worker's code: its own connection, a passive checkpoint of the log every so often. */
const WAL_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { timeout: 5000 });
const fold = () => { try { db.pragma("wal_checkpoint(PASSIVE)"); } catch {} };
const timer = setInterval(fold, workerData.everyMs);
parentPort.on("message", () => { clearInterval(timer); fold(); db.close(); parentPort.close(); });
`;

type Pragma = { pragma(source: string): unknown };
const walWorkers = new Map<string, { users: Set<Pragma>; worker: Worker }>();

/**
 * Folds the log (WAL) of the database at `path` into the database from a thread of its own, and
 * turns off folding on `db` — SQLite's default folds at the commit that takes the log past 1,000
 * pages, on the committing thread: copying megabytes and flushing them to disk while no other run
 * or request is served (a 4 MB commit: 83 ms median on this project's test machine with folding,
 * 24 ms without). A passive checkpoint waits for no lock: commits go on meanwhile. Answers what
 * stops it (this connection's share); without a driver found to load in the thread, SQLite's
 * default stays and nothing needs stopping.
 */
export function walInBackground(db: Pragma, file: string): () => Promise<void> {
  const path = resolve(file);
  let driver: string;
  try {
    driver = createRequire(import.meta.url).resolve("better-sqlite3");
  } catch {
    return async () => {};
  }
  let entry = walWorkers.get(path);
  if (!entry) {
    const worker = new Worker(WAL_WORKER, {
      eval: true,
      workerData: { driver, path, everyMs: WAL_CHECKPOINT_MS },
    });
    // Never what keeps a process alive. A thread that fails hands folding back to SQLite.
    worker.unref();
    const started = { users: new Set<Pragma>(), worker };
    worker.on("error", () => {
      walWorkers.delete(path);
      for (const user of started.users) user.pragma("wal_autocheckpoint = 1000");
    });
    entry = started;
    walWorkers.set(path, entry);
  }
  entry.users.add(db);
  db.pragma("wal_autocheckpoint = 0");
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    const e = walWorkers.get(path);
    if (!e) return;
    e.users.delete(db);
    if (e.users.size) return;
    walWorkers.delete(path);
    const exited = new Promise<void>((r) => e.worker.once("exit", () => r()));
    // Waited for: kept alive until it has folded the log one last time and closed.
    e.worker.ref();
    e.worker.postMessage("stop");
    await exited;
  };
}
