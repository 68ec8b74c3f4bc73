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

  it("search pages in the store: newest update first, by ids, by metadata, by status", async () => {
    const { server, client } = await serve();
    try {
      const made: string[] = [];
      for (let i = 0; i < 25; i++)
        made.push((await client.threads.create({ metadata: { batch: "paging", i } })).thread_id);
      const pages = [];
      for (const offset of [0, 10, 20])
        pages.push(
          await client.threads.search({ metadata: { batch: "paging" }, limit: 10, offset }),
        );
      expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
      // Every thread once, newest update first. Threads made within one millisecond have the same
      // `updated_at`: those come in thread id order, the same on every page.
      const found = pages.flat();
      expect(found.map((t) => t.thread_id).sort()).toEqual([...made].sort());
      const byRecency = (a: (typeof found)[0], b: (typeof found)[0]) =>
        b.updated_at.localeCompare(a.updated_at) || (a.thread_id < b.thread_id ? -1 : 1);
      expect(found).toEqual([...found].sort(byRecency));
      const madeAt = made.map((id) => found.find((t) => t.thread_id === id)!.updated_at);
      expect(madeAt).toEqual([...madeAt].sort());
      const two = [made[3]!, made[7]!];
      const byIds = await client.threads.search({ ids: two, limit: 100 });
      expect(byIds.map((t) => t.thread_id).sort()).toEqual([...two].sort());
      // A run moves its thread to the front; status is read from the thread itself.
      await client.runs.wait(made[0]!, "three-steps", { input: {} });
      const first = await client.threads.search({ metadata: { batch: "paging" }, limit: 1 });
      expect(first.map((t) => t.thread_id)).toEqual([made[0]]);
      await client.runs.stream(made[1]!, "approval", { input: { draft: "x" } }).next();
      for (;;) if ((await client.threads.get(made[1]!)).status === "interrupted") break;
      const interrupted = await client.threads.search({ status: "interrupted", limit: 100 });
      expect(interrupted.map((t) => t.thread_id)).toContain(made[1]);
      expect(interrupted.every((t) => t.status === "interrupted")).toBe(true);
    } finally {
      await server.close(1000);
    }
  });
});
