/**
 * A background run's context in the server's records (issue 23, item 5). `runs.create` queues the
 * run in the database with what a replica needs to start it; its context held the client's
 * `api_key` and `secret: true` values in plaintext, kept after the run succeeded. Through the
 * official SDK against the server on SQLite and PostgreSQL: the run waits in a node (so its row is
 * read while it is in flight), then checks it was given the real values; every byte of the SQLite
 * file and every row of every PostgreSQL table is searched for them, before and after it ends —
 * with a records key (the context sealed, any replica may run it) and without (the context stays
 * in the accepting replica's memory).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, type ServeOptions, startServer } from "../../src/index.js";
import { BIN } from "../support/cli.js";
import { freshDatabase, serverUrl } from "../support/postgres.js";

const GRAPHS = join(import.meta.dirname, "../fixtures/server-records/graphs");
const API_KEY = "sk-live-7f3a9c1e5b2d8f40";
const VAULT = "vault-4e8b1d7a2c9f6035";
const RECORDS_KEY = "a3".repeat(32);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-server-records-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sqliteBytes(path: string): string {
  const folder = join(path, "..");
  const base = path.split("/").pop()!;
  // The WAL journal beside it too: a row is written there first.
  return readdirSync(folder, { withFileTypes: true })
    .filter((f) => f.isFile() && f.name.startsWith(base))
    .map((f) => readFileSync(join(folder, f.name)).toString("latin1"))
    .join("\n");
}

async function postgresRows(url: string, query: string): Promise<Record<string, unknown>[]> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(query)).rows;
  } finally {
    await client.end();
  }
}

/** Every row of every table, bytea decoded, as text. */
async function postgresText(url: string): Promise<string> {
  const tables = await postgresRows(
    url,
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
  );
  const out: string[] = [];
  for (const { table_name } of tables)
    for (const row of await postgresRows(url, `SELECT * FROM "${table_name}"`))
      for (const v of Object.values(row))
        out.push(Buffer.isBuffer(v) ? v.toString("latin1") : JSON.stringify(v));
  return out.join("\n");
}

interface Store {
  exec: Parameters<typeof startServer>[0]["exec"];
  records: ServeOptions["records"];
  /** Everything stored, as text. */
  text(): Promise<string>;
  /** The `request` column of the run's row. */
  request(runId: string): Promise<unknown>;
}

async function sqliteStore(name: string): Promise<Store> {
  const sqlitePath = join(dir, name, "state.db");
  const exec = createExecutor({ dir: GRAPHS, checkpointer: "sqlite", sqlitePath });
  // better-sqlite3 has no types installed: only its constructor and one query are used.
  const driver = "better-sqlite3";
  const { default: Database } = (await import(driver)) as {
    default: new (
      path: string,
      o: { readonly: boolean },
    ) => { prepare(q: string): { get(...p: unknown[]): unknown }; close(): void };
  };
  return {
    exec,
    records: { sqlite: sqlitePath },
    text: async () => sqliteBytes(sqlitePath),
    async request(runId) {
      const db = new Database(sqlitePath, { readonly: true });
      try {
        const row = db
          .prepare("SELECT request FROM graphspec_server_runs WHERE run_id = ?")
          .get(runId) as { request: unknown };
        return row.request;
      } finally {
        db.close();
      }
    },
  };
}

async function postgresStore(name: string): Promise<Store> {
  const databaseUrl = await freshDatabase(name);
  const exec = createExecutor({ dir: GRAPHS, checkpointer: "postgres", databaseUrl });
  return {
    exec,
    records: { postgres: databaseUrl },
    text: () => postgresText(databaseUrl),
    async request(runId) {
      const [row] = await postgresRows(
        databaseUrl,
        `SELECT request FROM graphspec_server_runs WHERE run_id = '${runId}'`,
      );
      return row!.request;
    },
  };
}

/** A background run that needs both secrets, its stored records read while it waits and after. */
async function backgroundRun(store: Store, recordsKey?: string) {
  const server = await startServer({
    exec: store.exec,
    graphs: await folderCatalog(GRAPHS),
    auth: undefined,
    records: store.records,
    ...(recordsKey ? { recordsKey } : {}),
  });
  try {
    const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
    const thread = await client.threads.create();
    const gate = join(dir, `gate-${thread.thread_id}`);
    const run = await client.runs.create(thread.thread_id, "keyed", {
      input: { gate },
      context: { api_key: API_KEY, vault: VAULT, user: "ada" },
    });
    // In flight: waiting in its first node for the gate.
    while ((await client.runs.get(thread.thread_id, run.run_id)).status !== "running") {
      await new Promise((r) => setTimeout(r, 20));
    }
    const during = await store.text();
    const requestDuring = await store.request(run.run_id);
    writeFileSync(gate, "");
    await client.runs.join(thread.thread_id, run.run_id);
    const finished = await client.runs.get(thread.thread_id, run.run_id);
    const values = (await client.threads.getState(thread.thread_id)).values as Record<
      string,
      unknown
    >;
    return {
      during,
      requestDuring,
      after: await store.text(),
      requestAfter: await store.request(run.run_id),
      status: finished.status,
      values,
    };
  } finally {
    await server.close(1000);
  }
}

function expectKeptSecret(r: Awaited<ReturnType<typeof backgroundRun>>) {
  // The run had the real values: `***` would be 3 characters and no `vault-` prefix.
  expect(r.status).toBe("success");
  expect(r.values).toMatchObject({ done: true, key_length: API_KEY.length, vault_ok: true });
  for (const text of [r.during, r.after]) {
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(VAULT);
  }
  // Nothing will start a finished run again: its request is erased.
  expect(r.requestAfter).toBeNull();
}

describe("a background run's context is never stored in plaintext", () => {
  it("SQLite, without a records key: the run is driven where it was accepted", async () => {
    const r = await backgroundRun(await sqliteStore("sqlite-nokey"));
    expectKeptSecret(r);
  });

  it("SQLite, with a records key: queued with its context sealed", async () => {
    const r = await backgroundRun(await sqliteStore("sqlite-key"), RECORDS_KEY);
    expectKeptSecret(r);
    expect(String(r.requestDuring)).toContain('"sealedContext":"gs1:');
  });

  it.skipIf(!serverUrl())("PostgreSQL, without a records key", async () => {
    const r = await backgroundRun(await postgresStore("records_nokey"));
    expectKeptSecret(r);
  });

  it.skipIf(!serverUrl())("PostgreSQL, with a records key", async () => {
    const r = await backgroundRun(await postgresStore("records_key"), RECORDS_KEY);
    expectKeptSecret(r);
    expect(String(r.requestDuring)).toContain('"sealedContext":"gs1:');
  });
});

describe("records an older version kept", () => {
  it("a finished run's request, context included, is erased when the server starts", async () => {
    const store = await sqliteStore("sqlite-older");
    const path = (store.records as { sqlite: string }).sqlite;
    // The tables, as a first start makes them; then a row as older versions left it.
    await (
      await startServer({
        exec: store.exec,
        graphs: await folderCatalog(GRAPHS),
        auth: undefined,
        records: store.records,
      })
    ).close(100);
    const driver = "better-sqlite3";
    const { default: Database } = (await import(driver)) as {
      default: new (
        p: string,
      ) => { prepare(q: string): { run(...p: unknown[]): unknown }; close(): void };
    };
    const db = new Database(path);
    const request = { graph: "keyed", options: { context: { api_key: API_KEY } } };
    db.prepare(
      `INSERT INTO graphspec_server_runs (run_id, thread_id, record, status, created_at, request)
       VALUES ('old-run', 't', '{}', 'success', '2026-01-01', ?)`,
    ).run(JSON.stringify(request));
    db.close();
    const exec = createExecutor({ dir: GRAPHS, checkpointer: "sqlite", sqlitePath: path });
    const server = await startServer({
      exec,
      graphs: await folderCatalog(GRAPHS),
      auth: undefined,
      records: store.records,
    });
    await server.close(100);
    expect(await store.request("old-run")).toBeNull();
  });
});

describe("GRAPHSPEC_RECORDS_KEY", () => {
  it("that is not 32 bytes is a usage error naming it", () => {
    const r = spawnSync(
      process.execPath,
      [BIN, "serve", GRAPHS, "--no-auth", "--port", "0", "--checkpointer", "memory"],
      { cwd: dir, encoding: "utf8", env: { ...process.env, GRAPHSPEC_RECORDS_KEY: "short" } },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("GRAPHSPEC_RECORDS_KEY: the records key must be 32 random bytes");
  });
});
