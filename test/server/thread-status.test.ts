/**
 * A thread's status after its run failed, as LangGraph's own server shows it: `error`, whether the
 * failure left its node pending (a node that throws: the checkpoint's `next` still names it) or not
 * (a route whose expression fails). Only a pause is `interrupted`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, type RunningServer, startServer } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-thread-status-"));
let server: RunningServer;
let client: Client;

beforeAll(async () => {
  const graphs = join(dir, "graphs");
  mkdirSync(graphs);
  mkdirSync(join(dir, "nodes"));
  writeFileSync(join(dir, "package.json"), "{}");
  writeFileSync(
    join(dir, "nodes", "boom.mjs"),
    'export default async function boom() { throw new Error("boom"); }\n',
  );
  writeFileSync(
    join(graphs, "throws.yaml"),
    [
      "version: 1",
      "name: throws",
      "state:",
      "  done: { type: boolean, default: false }",
      "nodes:",
      "  fail: { kind: function, module: ../nodes/boom.mjs, writes: [done] }",
      "edges:",
      "  - { from: START, to: fail }",
      "  - { from: fail, to: END }",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(graphs, "asks.yaml"),
    [
      "version: 1",
      "name: asks",
      "state:",
      "  said: { type: string, default: '' }",
      "nodes:",
      "  ask: { kind: interrupt, payload: Anything?, write: { said: '${{ string(resume) }}' } }",
      "edges:",
      "  - { from: START, to: ask }",
      "  - { from: ask, to: END }",
      "",
    ].join("\n"),
  );
  const sqlitePath = join(dir, "state.db");
  server = await startServer({
    exec: createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath }),
    graphs: await folderCatalog(graphs),
    auth: undefined,
    port: 0,
    records: { sqlite: sqlitePath },
  });
  client = new Client({ apiUrl: server.url, apiKey: null, callerOptions: { maxRetries: 0 } });
});

afterAll(async () => {
  await server?.close(1000);
  rmSync(dir, { recursive: true, force: true });
});

describe("a thread's status", () => {
  it("is error after a node threw, though the node is still pending in its checkpoint", async () => {
    for (const background of [false, true]) {
      const thread = await client.threads.create();
      if (background) {
        const run = await client.runs.create(thread.thread_id, "throws", { input: {} });
        await client.runs.join(thread.thread_id, run.run_id);
      } else
        await expect(client.runs.wait(thread.thread_id, "throws", { input: {} })).rejects.toThrow(
          /node-error: boom/,
        );
      const state = await client.threads.getState(thread.thread_id);
      expect(state.next).toEqual(["fail"]);
      expect((await client.threads.get(thread.thread_id)).status).toBe("error");
    }
  });

  it("is interrupted at a pause, and idle once answered", async () => {
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "asks", { input: {} });
    expect((await client.threads.get(thread.thread_id)).status).toBe("interrupted");
    await client.runs.wait(thread.thread_id, "asks", { command: { resume: "yes" } });
    expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
  });
});
