/**
 * What the official LangGraph server (`@langchain/langgraph-cli dev`, the version installed here)
 * does with hand-written LangGraph.js graphs — no graphspec — in the cases docs/deploy.md records
 * under "Known upstream problems". A test here that fails means upstream changed: update the doc.
 */
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LanggraphDev, startLanggraphDev } from "./support/langgraph-dev.js";

const ROOT = join(import.meta.dirname, "..");
const PROJECT = join(import.meta.dirname, "fixtures/langgraph-api");

let dir: string;
let server: LanggraphDev;
let client: Client;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-langgraph-api-"));
  cpSync(PROJECT, dir, { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  server = await startLanggraphDev(dir);
  client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
}, 150_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the official LangGraph dev server with hand-written graphs", () => {
  it('starts from a langgraph.json with node_version "24", with no warning about LangGraph.js versions', async () => {
    expect(server.log()).toContain("Registering graph with id 'annotation'");
    // Its warning when @langchain/core, langgraph or langgraph-checkpoint is outside its range.
    expect(server.log()).not.toContain("dependencies are not up to date");
  });

  it("streams values with streamSubgraphs to the interrupt, plus checkpoints events nobody asked for", async () => {
    const thread = await client.threads.create();
    const events = await collect(
      client.runs.stream(thread.thread_id, "annotation", {
        input: { n: 0 },
        streamMode: "values",
        streamSubgraphs: true,
      }),
    );
    const names = events.map((e) => e.event.split("|")[0]);
    expect(names[0]).toBe("metadata");
    expect(events.some((e) => e.event.startsWith("values|child:"))).toBe(true);
    const values = events.filter((e) => e.event === "values").map((e) => e.data);
    expect(values.at(-2)).toMatchObject({ n: 1 });
    expect(values.at(-1)).toMatchObject({ __interrupt__: [{ value: { question: "ok?" } }] });
    // Upstream: lightweight `checkpoints` envelopes leak into a `values` stream with subgraphs.
    expect(names).toContain("checkpoints");
    const done = await client.runs.wait(thread.thread_id, "annotation", {
      command: { resume: "yes" },
    });
    expect(done).toMatchObject({ n: 1, answer: "yes" });
  });

  it("/schemas: a StateSchema graph's come from the graph; an Annotation graph's fail in the TypeScript parser (500)", async () => {
    const schemas = await client.assistants.getSchemas("schema");
    expect(schemas.input_schema).toMatchObject({ properties: { n: { type: "number" } } });
    // Upstream: a .mjs module's Annotation state goes to the TypeScript parser, which fails on it
    // (with TypeScript 5 beside it, in getExportsOfModule; here, beside this repository's
    // TypeScript 7, earlier: its @typescript/vfs finds no lib files). docs/deploy.md has both.
    await expect(client.assistants.getSchemas("annotation")).rejects.toThrow(/500/);
    expect(server.log()).toContain("Failed to extract schema");
  });

  it("a node's error: the stream's error event has its name and message; wait and join serialize that again", async () => {
    const streamed = await client.threads.create();
    const events = await collect(
      client.runs.stream(streamed.thread_id, "failing", { input: { n: 1 } }),
    );
    expect(events.filter((e) => e.event === "error").map((e) => e.data)).toEqual([
      { error: "Error", message: "boom" },
    ]);
    const waited = await client.threads.create();
    const thrown = await client.runs.wait(waited.thread_id, "failing", { input: { n: 1 } }).then(
      () => undefined,
      (e: Error) => e,
    );
    // Upstream: the stream's `{ error, message }` serialized once more, as if it were the error.
    expect(thrown?.message).toBe('Error: {"error":"Error","message":"boom"}');
    expect(String(thrown)).toBe('Error: Error: {"error":"Error","message":"boom"}');
    const joined = await client.threads.create();
    const run = await client.runs.create(joined.thread_id, "failing", { input: { n: 1 } });
    expect(await client.runs.join(joined.thread_id, run.run_id)).toEqual({
      __error__: { error: "Error", message: '{"error":"Error","message":"boom"}' },
    });
  });
});

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const e of stream) out.push(e);
  return out;
}
