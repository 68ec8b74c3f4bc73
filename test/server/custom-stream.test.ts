/**
 * The `custom` stream mode through the official SDK: what a node writes with `runtime.writer`
 * reaches the client as LangGraph's own server sends it — a `custom` event with the chunk as its
 * data, and from a node inside a subgraph, with `streamSubgraphs`, a `custom|sub:<task>` event.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, type RunningServer, startServer } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-custom-stream-"));
let server: RunningServer;
let client: Client;

const spec = (lines: string[]) => `${lines.join("\n")}\n`;

beforeAll(async () => {
  const graphs = join(dir, "graphs");
  mkdirSync(graphs);
  mkdirSync(join(dir, "nodes"));
  writeFileSync(join(dir, "package.json"), "{}");
  writeFileSync(
    join(dir, "nodes", "progress.mjs"),
    [
      "export async function work(state, runtime) {",
      "  runtime.writer({ progress: 'half' });",
      "  runtime.writer({ progress: 'done' });",
      "  return { n: state.n + 1 };",
      "}",
    ].join("\n"),
  );
  writeFileSync(
    join(graphs, "progress.yaml"),
    spec([
      "version: 1",
      "name: progress",
      "state:",
      "  n: { type: integer, default: 0 }",
      "nodes:",
      "  work: { kind: function, module: ../nodes/progress.mjs, export: work, writes: [n] }",
      "edges:",
      "  - { from: START, to: work }",
      "  - { from: work, to: END }",
    ]),
  );
  writeFileSync(
    join(graphs, "outer.yaml"),
    spec([
      "version: 1",
      "name: outer",
      "state:",
      "  n: { type: integer, default: 0 }",
      "nodes:",
      "  sub: { kind: subgraph, graph: ./progress.yaml }",
      "edges:",
      "  - { from: START, to: sub }",
      "  - { from: sub, to: END }",
    ]),
  );
  server = await startServer({
    exec: createExecutor({ dir: graphs, checkpointer: "memory" }),
    graphs: await folderCatalog(graphs),
    auth: undefined,
    port: 0,
  });
  client = new Client({ apiUrl: server.url, apiKey: null, callerOptions: { maxRetries: 0 } });
});

afterAll(async () => {
  await server?.close(1000);
  rmSync(dir, { recursive: true, force: true });
});

const events = async (graph: string, streamSubgraphs: boolean) => {
  const out: { event: string; data: unknown }[] = [];
  for await (const e of client.runs.stream(null, graph, {
    input: {},
    streamMode: ["custom"],
    streamSubgraphs,
  }))
    if (e.event !== "metadata") out.push({ event: e.event, data: e.data });
  return out;
};

describe("the custom stream mode", () => {
  it("carries what a node writes with runtime.writer, in order", async () => {
    expect(await events("progress", false)).toEqual([
      { event: "custom", data: { progress: "half" } },
      { event: "custom", data: { progress: "done" } },
    ]);
  });

  it("a subgraph's writes come with its namespace under streamSubgraphs, and not without", async () => {
    expect(await events("outer", false)).toEqual([]);
    const nested = await events("outer", true);
    expect(nested.map((e) => e.data)).toEqual([{ progress: "half" }, { progress: "done" }]);
    for (const e of nested) expect(e.event).toMatch(/^custom\|sub:[0-9a-f-]+$/);
  });
});
