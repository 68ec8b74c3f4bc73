/** A real server on 127.0.0.1 (port 0) over a real SQLite checkpointer, for the SDK to talk to. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import {
  type Authenticator,
  createExecutor,
  folderCatalog,
  type RunningServer,
  serverAuth,
  startServer,
} from "../../src/index.js";

export const GRAPHS = join(import.meta.dirname, "../fixtures/server/graphs");

export interface Harness {
  server: RunningServer;
  url: string;
  /** An SDK client; with `apiKey`, as that tenant. Retries off: a test sees the first answer. */
  client(apiKey?: string): Client;
  stop(): Promise<void>;
}

export async function startHarness(
  opts: {
    apiKeys?: Record<string, string>;
    authHandler?: string;
    maxBodyBytes?: number;
    /** The server's bound on each run's duration and tokens (startServer's). */
    runDeadlineMs?: number | null;
    runMaxTokens?: number;
    /** Answers for `scripted:NAME` models, by NAME. */
    scripts?: Record<string, unknown[]>;
  } = {},
): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), "graphspec-server-"));
  const sqlitePath = join(dir, "state.db");
  const exec = createExecutor({
    dir: GRAPHS,
    checkpointer: "sqlite",
    sqlitePath,
    ...(opts.scripts ? { scripts: opts.scripts as never } : {}),
  });
  let auth: Authenticator | undefined;
  if (opts.apiKeys) {
    const file = join(dir, "keys.json");
    writeFileSync(file, JSON.stringify(opts.apiKeys));
    auth = await serverAuth({ apiKeys: file });
  } else if (opts.authHandler) auth = await serverAuth({ handler: opts.authHandler });
  const server = await startServer({
    exec,
    graphs: await folderCatalog(GRAPHS),
    auth,
    port: 0,
    // Records in the SQLite file, as `graphspec serve` keeps them: background runs go through its queue.
    records: { sqlite: sqlitePath },
    ...(opts.maxBodyBytes ? { maxBodyBytes: opts.maxBodyBytes } : {}),
    ...(opts.runDeadlineMs !== undefined ? { runDeadlineMs: opts.runDeadlineMs } : {}),
    ...(opts.runMaxTokens !== undefined ? { runMaxTokens: opts.runMaxTokens } : {}),
  });
  return {
    server,
    url: server.url,
    client: (apiKey) =>
      new Client({ apiUrl: server.url, apiKey: apiKey ?? null, callerOptions: { maxRetries: 0 } }),
    async stop() {
      await server.close(1000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every event of an SDK stream, in order. */
export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const e of stream) out.push(e);
  return out;
}
