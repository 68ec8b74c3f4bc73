/**
 * `threads.search` through the official SDK lists every thread the checkpointer holds, not only
 * those the server's records know: after a restart whose records were in memory, and threads that
 * `graphspec run --thread` (the built CLI: run `npm run build` first) wrote into the same SQLite
 * file while the server ran — each with its graph id, status, values and time, paged and filtered
 * by status and `metadata.graph_id` as LangGraph's server does.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, type RunningServer, startServer } from "../../src/index.js";

const run = promisify(execFile);
const BIN = resolve("bin/graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-checkpoint-threads-"));
const graphs = join(dir, "graphs");
// Where `graphspec run` keeps checkpoints by default, started in the project.
const sqlitePath = join(dir, ".graphspec", "state.db");
let server: RunningServer | undefined;
let client: Client;

async function serve(records: "memory" | { sqlite: string }) {
  await server?.close(1000);
  server = await startServer({
    exec: createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath }),
    graphs: await folderCatalog(graphs),
    auth: undefined,
    port: 0,
    records,
  });
  client = new Client({ apiUrl: server.url, apiKey: null, callerOptions: { maxRetries: 0 } });
}

/** `graphspec run <graph> --thread <id>` in the project (its default SQLite file). */
const cliRun = (graph: string, thread: string) =>
  run(process.execPath, [BIN, "run", graph, "--thread", thread], { cwd: dir }).catch(
    (e: { code?: number }) => e,
  );

beforeAll(async () => {
  mkdirSync(graphs);
  mkdirSync(join(dir, "nodes"));
  writeFileSync(join(dir, "package.json"), "{}");
  writeFileSync(
    join(graphs, "counts.yaml"),
    [
      "version: 1",
      "name: counts",
      "state:",
      "  count: { type: integer, reducer: sum, default: 0 }",
      "nodes:",
      "  add: { kind: set, values: { count: 1 } }",
      "edges:",
      "  - { from: START, to: add }",
      "  - { from: add, to: END }",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "nodes", "wrong.mjs"),
    'export default async function wrong() { return { n: "many" }; }\n',
  );
  writeFileSync(
    join(graphs, "miswrites.yaml"),
    [
      "version: 1",
      "name: miswrites",
      "state:",
      "  n: { type: integer, default: 0 }",
      "nodes:",
      "  wrong: { kind: function, module: ../nodes/wrong.mjs, writes: [n] }",
      "edges:",
      "  - { from: START, to: wrong }",
      "  - { from: wrong, to: END }",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "nodes", "flaky.mjs"),
    'export default async function flaky(state) {\n  if (state.fail) throw new Error("asked to fail");\n  return { done: true };\n}\n',
  );
  writeFileSync(
    join(graphs, "flaky.yaml"),
    [
      "version: 1",
      "name: flaky",
      "state:",
      "  fail: { type: boolean, default: false }",
      "  done: { type: boolean, default: false }",
      "nodes:",
      "  work: { kind: function, module: ../nodes/flaky.mjs, writes: [done] }",
      "edges:",
      "  - { from: START, to: work }",
      "  - { from: work, to: END }",
      "",
    ].join("\n"),
  );
});

afterAll(async () => {
  await server?.close(1000);
  rmSync(dir, { recursive: true, force: true });
});

const ids = (threads: { thread_id: string }[]) => threads.map((t) => t.thread_id).sort();

describe("threads.search after a restart whose records were in memory", () => {
  it("lists the threads only the checkpoints know, with graph id, status and values", async () => {
    await serve("memory");
    const done = await client.threads.create();
    await client.runs.wait(done.thread_id, "counts", { input: {} });
    const failed = await client.threads.create();
    await expect(client.runs.wait(failed.thread_id, "miswrites", { input: {} })).rejects.toThrow();
    await serve("memory");
    const all = await client.threads.search({ limit: 100 });
    expect(ids(all)).toEqual([done.thread_id, failed.thread_id].sort());
    const counted = all.find((t) => t.thread_id === done.thread_id)!;
    expect(counted).toMatchObject({
      status: "idle",
      metadata: { graph_id: "counts" },
      values: { count: 1 },
    });
    expect(Date.parse(counted.updated_at)).not.toBeNaN();
    const errored = await client.threads.search({ status: "error" });
    expect(ids(errored)).toEqual([failed.thread_id]);
    expect(errored[0]).toMatchObject({ metadata: { graph_id: "miswrites" } });
    // Its failure as `threads.get` gives it: the code in `error`, with the message and hint.
    expect((errored[0] as { error?: unknown }).error).toMatchObject({
      error: "invalid-write",
      hint: expect.any(String),
    });
    const ofGraph = await client.threads.search({ metadata: { graph_id: "counts" } });
    expect(ids(ofGraph)).toEqual([done.thread_id]);
    // Paged, newest first: the failed run came last.
    const [first] = await client.threads.search({ limit: 1 });
    const [second] = await client.threads.search({ limit: 1, offset: 1 });
    expect([first!.thread_id, second!.thread_id]).toEqual([failed.thread_id, done.thread_id]);
  });
});

describe("threads.search with records in the same SQLite file", () => {
  it("lists a thread `graphspec run --thread` wrote while the server ran, and its later update", async () => {
    await serve({ sqlite: sqlitePath });
    const before = await client.threads.search({ limit: 100 });
    const outcome = await cliRun("counts", "from-the-cli");
    expect((outcome as { code?: number }).code ?? 0).toBe(0);
    const listed = await client.threads.search({ limit: 100 });
    expect(ids(listed)).toEqual([...ids(before), "from-the-cli"].sort());
    const cli = listed.find((t) => t.thread_id === "from-the-cli")!;
    expect(cli).toMatchObject({ status: "idle", metadata: { graph_id: "counts" } });
    expect(cli.values).toEqual({ count: 1 });
    // Run again from the CLI: the thread comes first (newest update) with its new values.
    await cliRun("counts", "from-the-cli");
    const [newest] = await client.threads.search({ limit: 1 });
    expect(newest).toMatchObject({ thread_id: "from-the-cli", values: { count: 2 } });
    expect(await client.threads.get("from-the-cli")).toMatchObject({ values: { count: 2 } });
  });
});

describe("threads.search by status", () => {
  const statusOf = async (status: "idle" | "error", thread: string) =>
    ids(await client.threads.search({ status, limit: 1000 })).includes(thread);

  it("follows a thread whose status changed since the last search: through the server, through the CLI", async () => {
    await serve({ sqlite: sqlitePath });
    const { thread_id } = await client.threads.create();
    await client.runs.wait(thread_id, "flaky", { input: {} });
    expect([await statusOf("idle", thread_id), await statusOf("error", thread_id)]).toEqual([
      true,
      false,
    ]);
    await expect(client.runs.wait(thread_id, "flaky", { input: { fail: true } })).rejects.toThrow();
    expect([await statusOf("idle", thread_id), await statusOf("error", thread_id)]).toEqual([
      false,
      true,
    ]);
    // The CLI on the same file: run again, fixed (idle), then failing (error).
    await run(
      process.execPath,
      [BIN, "run", "flaky", "--thread", thread_id, "--input", '{"fail":false}'],
      { cwd: dir },
    );
    expect([await statusOf("idle", thread_id), await statusOf("error", thread_id)]).toEqual([
      true,
      false,
    ]);
    await cliRunWith("flaky", thread_id, '{"fail":true}');
    expect([await statusOf("idle", thread_id), await statusOf("error", thread_id)]).toEqual([
      false,
      true,
    ]);
  });
});

/** `graphspec run <graph> --thread <id> --input <json>`, its failure expected. */
const cliRunWith = (graph: string, thread: string, input: string) =>
  run(process.execPath, [BIN, "run", graph, "--thread", thread, "--input", input], {
    cwd: dir,
  }).then(
    () => {
      throw new Error("the run was expected to fail");
    },
    () => undefined,
  );
