/**
 * The server's graphs folder is listed again only when it has changed: before, every request that
 * looked up an assistant (every run, every `assistants.search`) read the folder. A file added to
 * it is still served at once, as before. Through the official SDK against startServer from the
 * package entry, the folder reads counted on node:fs/promises.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, describe, expect, it, vi } from "vitest";

const reads = vi.hoisted(() => ({ n: 0, probes: 0 }));
vi.mock("node:fs/promises", async (original) => {
  const fs = await original<typeof import("node:fs/promises")>();
  return {
    ...fs,
    readdir: ((...args: Parameters<typeof fs.readdir>) => {
      reads.n++;
      return fs.readdir(...args);
    }) as typeof fs.readdir,
    stat: ((...args: Parameters<typeof fs.stat>) => {
      reads.probes++;
      return fs.stat(...args);
    }) as typeof fs.stat,
    realpath: ((...args: Parameters<typeof fs.realpath>) => {
      reads.probes++;
      return fs.realpath(...args);
    }) as typeof fs.realpath,
  };
});

const { createExecutor, folderCatalog, startServer } = await import("../../src/index.js");

const dir = mkdtempSync(join(tmpdir(), "graphspec-catalog-reads-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const graphs = join(dir, "graphs");
mkdirSync(graphs);
writeFileSync(join(dir, "package.json"), "{}");
const spec = (name: string) => `version: 1
name: ${name}
state:
  n: { type: integer, default: 0 }
nodes:
  one: { kind: set, values: { n: "\${{ state.n + 1 }}" } }
edges:
  - { from: START, to: one }
  - { from: one, to: END }
`;
writeFileSync(join(graphs, "first.yaml"), spec("first"));
// The folder last changed a minute ago: its listing can be trusted (graph-catalog.ts).
const past = new Date(Date.now() - 60_000);
utimesSync(graphs, past, past);

describe("the graphs folder", () => {
  it("is read once for many requests, and again when a file is added to it", async () => {
    const server = await startServer({
      exec: createExecutor({ dir: graphs, checkpointer: "memory" }),
      graphs: await folderCatalog(graphs),
      auth: undefined,
      port: 0,
    });
    try {
      const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
      const before = reads.n;
      for (let i = 0; i < 10; i++) {
        expect((await client.assistants.search()).map((a) => a.graph_id)).toEqual(["first"]);
        expect(await client.runs.wait(null, "first", { input: {} })).toMatchObject({ n: 1 });
      }
      expect(reads.n - before).toBeLessThanOrEqual(1);
      // Added: served on the next request, as before.
      writeFileSync(join(graphs, "second.yaml"), spec("second"));
      expect((await client.assistants.search()).map((a) => a.graph_id).sort()).toEqual([
        "first",
        "second",
      ]);
      expect(await client.runs.wait(null, "second", { input: {} })).toMatchObject({ n: 1 });
    } finally {
      await server.close(1000);
    }
  });

  it("is looked up for a run, and the run's state read back, with no file probe through the thread pool", async () => {
    // Each of those (a stat or a real path through fs/promises) is a thread-pool round trip, and
    // a request made one per spec file in the folder, and more to read the result back.
    const server = await startServer({
      exec: createExecutor({ dir: graphs, checkpointer: "memory" }),
      graphs: await folderCatalog(graphs),
      auth: undefined,
      port: 0,
    });
    try {
      const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
      const thread = () => `t-${Math.random()}`;
      await client.runs.wait(thread(), "first", { input: {}, ifNotExists: "create" });
      const before = reads.probes;
      for (let i = 0; i < 5; i++)
        expect(
          await client.runs.wait(thread(), "first", { input: {}, ifNotExists: "create" }),
        ).toMatchObject({ n: 1 });
      expect(reads.probes - before).toBe(0);
    } finally {
      await server.close(1000);
    }
  });
});
