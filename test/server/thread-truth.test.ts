/**
 * What a thread says of itself through the official SDK, as LangGraph's server says it, and what
 * graphspec keeps besides: a fork (`threads.updateState`) of a graph whose context has a required
 * field runs with the thread's own context (LangGraph's updateState takes none) and the new
 * checkpoint remembers it; a failed thread is `error` with its failure (`Thread.error`: code,
 * message, node, hint) and its failed task's error in the state — also from a server started
 * again on the same checkpoints, whose run records are gone.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, type RunningServer, startServer } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-thread-truth-"));
const graphs = join(dir, "graphs");
const sqlitePath = join(dir, "state.db");
let server: RunningServer | undefined;
let client: Client;

/** A server on the project's checkpoints; its run records in this process only. */
async function serve() {
  await server?.close(1000);
  server = await startServer({
    exec: createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath }),
    graphs: await folderCatalog(graphs),
    auth: undefined,
    port: 0,
  });
  client = new Client({ apiUrl: server.url, apiKey: null, callerOptions: { maxRetries: 0 } });
}

beforeAll(async () => {
  mkdirSync(graphs);
  writeFileSync(join(dir, "package.json"), "{}");
  writeFileSync(
    join(graphs, "greets.yaml"),
    [
      "version: 1",
      "name: greets",
      "state:",
      "  who: { type: string, default: '' }",
      "  count: { type: integer, reducer: sum, default: 0 }",
      "context:",
      "  user_id: { type: string, required: true }",
      "nodes:",
      "  greet: { kind: set, values: { who: '${{ context.user_id }}', count: 1 } }",
      "  again: { kind: set, values: { count: 1 } }",
      "edges:",
      "  - { from: START, to: greet }",
      "  - { from: greet, to: again }",
      "  - { from: again, to: END }",
      "",
    ].join("\n"),
  );
  // A function node writing a string into an integer channel: refused with a code and a hint.
  mkdirSync(join(dir, "nodes"));
  writeFileSync(
    join(dir, "nodes", "wrong.mjs"),
    'export default async function wrong() { return { n: "many" }; }\n',
  );
  // A node whose error names its own file: the server's absolute path, which no client reads.
  writeFileSync(
    join(dir, "nodes", "names-itself.mjs"),
    'import { fileURLToPath } from "node:url";\n' +
      "export default async function namesItself() {\n" +
      "  throw new Error(`cannot read ${fileURLToPath(import.meta.url)}`);\n" +
      "}\n",
  );
  writeFileSync(
    join(graphs, "names-itself.yaml"),
    [
      "version: 1",
      "name: names-itself",
      "state:",
      "  n: { type: integer, default: 0 }",
      "nodes:",
      "  read: { kind: function, module: ../nodes/names-itself.mjs, writes: [n] }",
      "edges:",
      "  - { from: START, to: read }",
      "  - { from: read, to: END }",
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(graphs, "miswrites.yaml"),
    [
      "version: 1",
      "name: miswrites",
      "state:",
      "  n: { type: integer, default: 0 }",
      "  text: { type: string, default: '' }",
      "nodes:",
      "  first: { kind: set, values: { text: hello } }",
      "  wrong: { kind: function, module: ../nodes/wrong.mjs, writes: [n] }",
      "edges:",
      "  - { from: START, to: first }",
      "  - { from: first, to: wrong }",
      "  - { from: wrong, to: END }",
      "",
    ].join("\n"),
  );
  await serve();
});

afterAll(async () => {
  await server?.close(1000);
  rmSync(dir, { recursive: true, force: true });
});

describe("a fork of a graph with a required context field", () => {
  it("is written with the thread's context, which the new checkpoint keeps", async () => {
    const { thread_id } = await client.threads.create();
    await client.runs.wait(thread_id, "greets", {
      input: {},
      context: { user_id: "u-42" },
    });
    const history = await client.threads.getHistory(thread_id);
    const afterGreet = history.find((s) => s.next[0] === "again")!;
    // From a checkpoint that is not the latest, as the page's "Fork from here" does.
    const written = await client.threads.updateState(thread_id, {
      values: { count: 10 },
      checkpointId: afterGreet.checkpoint.checkpoint_id!,
    });
    const forked = await client.threads.getState(thread_id);
    expect(forked.checkpoint.checkpoint_id).toBe(written.configurable?.checkpoint_id);
    expect(forked.values).toEqual({ who: "u-42", count: 11 });
    // A run on from the fork, given no context: the thread's own is used.
    await client.runs.wait(thread_id, "greets", { input: null });
    expect((await client.threads.getState(thread_id)).values).toEqual({ who: "u-42", count: 12 });
  });

  it("writes a value as shown with LangGraph's Overwrite, past the channel's reducer", async () => {
    const { thread_id } = await client.threads.create();
    await client.runs.wait(thread_id, "greets", { input: {}, context: { user_id: "u-7" } });
    await client.threads.updateState(thread_id, { values: { count: { __overwrite__: 200 } } });
    expect((await client.threads.getState(thread_id)).values).toEqual({ who: "u-7", count: 200 });
  });

  it("the assistant names each channel's reducer, for a client to say what an edit does", async () => {
    const assistant = await client.assistants.get("greets");
    expect((assistant.metadata?.graphspec as { reducers?: unknown } | undefined)?.reducers).toEqual(
      {
        count: "sum",
      },
    );
  });
});

describe("a failed thread", () => {
  it("is error with its failure — code, message, node, hint — and its failed task's error", async () => {
    const { thread_id } = await client.threads.create();
    await expect(client.runs.wait(thread_id, "miswrites", { input: {} })).rejects.toThrow();
    const thread = await client.threads.get(thread_id);
    expect(thread.status).toBe("error");
    const error = thread.error as Record<string, string>;
    expect(error).toMatchObject({ node: "wrong" });
    expect(error.error).toMatch(/^[a-z-]+$/);
    expect(error.message).toMatch(/n/);
    expect(error.hint).toBeTruthy();
    const state = await client.threads.getState(thread_id);
    expect(state.tasks).toEqual([
      expect.objectContaining({ name: "wrong", error: expect.any(String) }),
    ]);
    // The state's history says the same of that checkpoint.
    const [latest] = await client.threads.getHistory(thread_id, { limit: 1 });
    expect(latest!.tasks[0]!.error).toBe(state.tasks[0]!.error);
  });

  it("names its files relative to the project, never by the server's paths", async () => {
    const { thread_id } = await client.threads.create();
    await expect(client.runs.wait(thread_id, "names-itself", { input: {} })).rejects.toThrow();
    const thread = await client.threads.get(thread_id);
    const state = await client.threads.getState(thread_id);
    const [latest] = await client.threads.getHistory(thread_id, { limit: 1 });
    const said = [
      (thread.error as { message: string }).message,
      state.tasks[0]!.error,
      latest!.tasks[0]!.error,
    ];
    for (const text of said) {
      expect(text).toContain("cannot read nodes/names-itself.mjs");
      expect(text).not.toContain(dir);
    }
  });

  it("stays error, with its failure, on a server started again on the same checkpoints", async () => {
    const { thread_id } = await client.threads.create();
    await expect(client.runs.wait(thread_id, "miswrites", { input: {} })).rejects.toThrow();
    const before = await client.threads.get(thread_id);
    await serve();
    // The run records were this process's: only the checkpoints know the thread failed.
    expect(await client.runs.list(thread_id)).toEqual([]);
    const after = await client.threads.get(thread_id);
    expect(after.status).toBe("error");
    expect(after.error).toEqual(before.error);
    // The state says which task failed and why, and the failed step is what a Retry runs again.
    const state = await client.threads.getState(thread_id);
    expect(state.next).toEqual(["wrong"]);
    expect(state.tasks).toEqual([
      expect.objectContaining({ name: "wrong", error: expect.stringContaining("`n` must be") }),
    ]);
    const [listed] = await client.threads.search({ status: "error", ids: [thread_id] });
    expect(listed).toMatchObject({ thread_id, status: "error", error: before.error });
  });
});
