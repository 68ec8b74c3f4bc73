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
