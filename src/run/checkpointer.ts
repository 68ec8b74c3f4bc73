/**
 * Where runs keep their checkpoints: `memory` (this process only); `sqlite` — the default, a file
 * (`.graphspec/state.db`) through LangGraph's official SQLite checkpointer, so paused and failed
 * runs survive the process; `postgres` — LangGraph's official PostgreSQL checkpointer on
 * `DATABASE_URL`, shared by every process that points at it. Or any LangGraph checkpointer.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type BaseCheckpointSaver, MemorySaver } from "@langchain/langgraph";
import { scrubber } from "../spec/secrets.js";
import { CheckpointerError } from "./checkpointer-error.js";
import { guardSecrets } from "./secret-guard.js";

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
  /** Releases connections (a PostgreSQL pool keeps a process alive until it is ended). */
  close(): Promise<void>;
}

export const DEFAULT_SQLITE_PATH = ".graphspec/state.db";

/** The configurable key (and checkpoint metadata key) that names the spec a thread runs. */
export const GRAPH_KEY = "graphspec_graph";
/** The configurable key (and checkpoint metadata key) of the run's context, secrets left out. */
export const CONTEXT_KEY = "graphspec_context";

/**
 * LangGraph.js does not copy a run's config into checkpoint metadata; this puts the thread's
 * graph and context there, so `threads list` and `resume` without a spec know what a thread ran.
 */
function tagging(saver: BaseCheckpointSaver): BaseCheckpointSaver {
  guardSecrets(saver, [GRAPH_KEY]); // wrapped first, so the tags added below are masked too
  const put = saver.put.bind(saver);
  saver.put = (config, checkpoint, metadata, versions) => {
    const tags: Record<string, unknown> = {};
    for (const key of [GRAPH_KEY, CONTEXT_KEY]) {
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
  const { PostgresSaver } = await import("@langchain/langgraph-checkpoint-postgres");
  const saver = PostgresSaver.fromConnString(url);
  try {
    // Creates the tables (and runs LangGraph's migrations) when they are not there yet.
    await saver.setup();
  } catch (e) {
    await saver.end().catch(() => {});
    let where = "the database";
    try {
      const u = new URL(url);
      where = `${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
    } catch {}
    const reason = scrubber([url, ...passwordOf(url)])(String((e as Error)?.message ?? e));
    throw new CheckpointerError(
      `cannot use PostgreSQL at ${where}: ${reason.split("\n")[0]}`,
      "check that the server runs and DATABASE_URL (host, port, user, password, database) is right",
    );
  }
  return { saver: tagging(saver), durable: true, close: () => saver.end() };
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
  if (choice === "memory") {
    return { saver: tagging(new MemorySaver()), durable: false, close: noClose };
  }
  if (choice === "sqlite") {
    const path = resolve(options.sqlitePath ?? DEFAULT_SQLITE_PATH);
    mkdirSync(dirname(path), { recursive: true });
    // Loaded only when used: better-sqlite3 is a native module.
    const { SqliteSaver } = await import("@langchain/langgraph-checkpoint-sqlite");
    const saver = SqliteSaver.fromConnString(path);
    return { saver: tagging(saver), durable: true, close: async () => saver.db.close() };
  }
  if (choice === "postgres") return openPostgres(options.databaseUrl ?? process.env.DATABASE_URL);
  return { saver: tagging(choice), durable: !(choice instanceof MemorySaver), close: noClose };
}
