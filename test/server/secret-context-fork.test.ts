/**
 * A graph whose context has a `required: true, secret: true` field, through the official SDK: the
 * secret is never stored with the thread (by design), so a fork (`threads.updateState`) must not
 * need it — it writes state and runs nothing — while a later Continue that runs nodes is refused
 * with a coded 422 (`invalid-context`) naming the field and saying why it is asked for again, until
 * it is given.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, type RunningServer, startServer } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-secret-fork-"));
const graphs = join(dir, "graphs");
const TOKEN = "crm-tok-5f2a9e71c0";
let server: RunningServer;
let client: Client;

beforeAll(async () => {
  mkdirSync(graphs);
  writeFileSync(join(dir, "package.json"), "{}");
  writeFileSync(
    join(graphs, "keyed.yaml"),
    [
      "version: 1",
      "name: keyed",
      "state:",
      "  note: { type: string, default: '' }",
      "  sent: { type: boolean, default: false }",
      "context:",
      "  crm_token: { type: string, required: true, secret: true }",
      "  team: { type: string, required: true }",
      "nodes:",
      "  draft: { kind: set, values: { note: drafted } }",
      "  send: { kind: set, values: { sent: true } }",
      "edges:",
      "  - { from: START, to: draft }",
      // A route: LangGraph's updateState runs the branches of the node it writes as.
      "  - from: draft",
      "    route:",
      "      - { when: 'state.note != \"\"', to: send }",
      "      - { default: END }",
      "  - { from: send, to: END }",
      "",
    ].join("\n"),
  );
  server = await startServer({
    exec: createExecutor({ dir: graphs, checkpointer: "sqlite", sqlitePath: join(dir, "s.db") }),
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

/** A thread of `keyed` paused before `send` (a breakpoint), run with the secret. */
async function paused(): Promise<string> {
  const { thread_id } = await client.threads.create();
  await client.runs.wait(thread_id, "keyed", {
    input: {},
    context: { crm_token: TOKEN, team: "billing" },
    interruptBefore: ["send"],
  });
  expect((await client.threads.getState(thread_id)).next).toEqual(["send"]);
  return thread_id;
}

describe("a required secret context field", () => {
  it("is writeOnly in the assistant's context schema (a form shows a password input)", async () => {
    const { context_schema } = await client.assistants.getSchemas("keyed");
    const properties = (context_schema as { properties: Record<string, unknown> }).properties;
    expect(properties.crm_token).toMatchObject({ type: "string", writeOnly: true });
    expect(properties.team).not.toHaveProperty("writeOnly");
  });

  it("does not block a fork: updateState writes without it, from the latest or an earlier checkpoint", async () => {
    const thread = await paused();
    await client.threads.updateState(thread, { values: { note: "edited" } });
    expect((await client.threads.getState(thread)).values).toMatchObject({ note: "edited" });
    const [, earlier] = await client.threads.getHistory(thread, { limit: 5 });
    await client.threads.updateState(thread, {
      values: { note: "from earlier" },
      checkpointId: earlier!.checkpoint.checkpoint_id!,
    });
    expect((await client.threads.getState(thread)).values).toMatchObject({ note: "from earlier" });
  });

  it("is asked for again by a Continue after a fork, by name, with a hint; given, the run goes on", async () => {
    const thread = await paused();
    await client.threads.updateState(thread, { values: { note: "edited" } });
    const refused = await client.runs
      .wait(thread, "keyed", { input: null })
      .then(() => undefined)
      .catch((e: unknown) => e as { status?: number; message?: string });
    expect(refused?.status).toBe(422);
    const body = JSON.parse(String(refused?.message).replace(/^[^{]*/, "")) as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({
      error: "invalid-context",
      field: "crm_token",
      message: expect.stringContaining("`crm_token` (a secret)"),
      hint: expect.stringMatching(/`crm_token` is a secret, not kept with the thread/),
    });
    // The thread's own context (the non-secret `team`) is still remembered: only the secret is asked.
    const done = (await client.runs.wait(thread, "keyed", {
      input: null,
      context: { crm_token: TOKEN },
    })) as Record<string, unknown>;
    expect(done).toMatchObject({ note: "edited", sent: true });
    // Never stored: not in the state, not in the checkpoints' metadata.
    const history = await client.threads.getHistory(thread, { limit: 20 });
    expect(JSON.stringify(history)).not.toContain(TOKEN);
  });

  it("refuses a background run without it at once (422), as a streamed run is: nothing is queued", async () => {
    const thread = await paused();
    await client.threads.updateState(thread, { values: { note: "again" } });
    const refused = await client.runs
      .create(thread, "keyed", { input: null })
      .then(() => undefined)
      .catch((e: unknown) => e as { status?: number; message?: string });
    expect(refused?.status).toBe(422);
    expect(String(refused?.message)).toMatch(/invalid-context.*`crm_token` \(a secret\)/s);
    expect(await client.runs.list(thread)).toHaveLength(1);
    // Given, it runs in the background to the end.
    const run = await client.runs.create(thread, "keyed", {
      input: null,
      context: { crm_token: TOKEN },
    });
    await client.runs.join(thread, run.run_id);
    expect((await client.threads.getState(thread)).values).toMatchObject({
      note: "again",
      sent: true,
    });
  });
});
