/**
 * Thread and run records in the SQLite file beside the checkpoints: a server started again on the
 * same file still knows a thread made before any run (and its metadata) and the runs it ran.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, startServer } from "../../src/index.js";
import { GRAPHS } from "./harness.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-records-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve() {
  const sqlitePath = join(dir, "state.db");
  const server = await startServer({
    exec: createExecutor({ dir: GRAPHS, checkpointer: "sqlite", sqlitePath }),
    graphs: await folderCatalog(GRAPHS),
    auth: undefined,
    records: { sqlite: sqlitePath },
  });
  return { server, client: new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } }) };
}

describe("records in the SQLite file", () => {
  it("outlive the server: threads with their metadata, and runs", async () => {
    const first = await serve();
    const idle = await first.client.threads.create({ metadata: { owner: "ann" } });
    const ran = await first.client.threads.create({ metadata: { owner: "bob" } });
    const run = await first.client.runs.create(ran.thread_id, "three-steps", { input: {} });
    await first.client.runs.join(ran.thread_id, run.run_id);
    await first.server.close(1000);

    const second = await serve();
    try {
      expect((await second.client.threads.get(idle.thread_id)).metadata).toEqual({ owner: "ann" });
      const found = await second.client.threads.search({ metadata: { owner: "bob" } });
      expect(found.map((t) => t.thread_id)).toEqual([ran.thread_id]);
      expect((await second.client.runs.get(ran.thread_id, run.run_id)).status).toBe("success");
      expect(await second.client.runs.join(ran.thread_id, run.run_id)).toMatchObject({ n: 3 });
    } finally {
      await second.server.close(1000);
    }
  });
});
