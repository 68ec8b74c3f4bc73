/**
 * Per-run credentials for model calls (issue 25, item 1): a multi-tenant service whose model takes
 * each run's API key, `user`, headers and request metadata from the run's context. Through the
 * official SDK against `graphspec serve` (the built CLI, its own process, SQLite) with two tenants,
 * and the real ChatOpenAI against an OpenAI-compatible gateway on 127.0.0.1 that records what it
 * gets and answers with LiteLLM's cost header. Each tenant's calls carry that tenant's key, user
 * and metadata; the keys are in clear nowhere else (the database file, the server's output, the
 * stream, the thread's state, a failed run's error); the gateway's cost is in the answer's usage.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../support/cli.js";
import { type ProviderSim, startProviderSim } from "../support/provider-sim/server.js";

const TENANTS = {
  a: { server: "tenant-a-server-key-0001", model: "sk-tenant-a-9f8e7d6c5b4a", account: "acct-a" },
  b: { server: "tenant-b-server-key-0002", model: "sk-tenant-b-1a2b3c4d5e6f", account: "acct-b" },
};

const spec = (gateway: string) => `version: 1
name: tenant-chat
state:
  messages: { type: messages }
context:
  model_key: { type: string, secret: true, required: true }
  account_id: { type: string, required: true }
models:
  default:
    model: "openai:gpt-4o-mini"
    base_url: "${gateway}"
    api_key: "\${{ context.model_key }}"
    user: "\${{ context.account_id }}"
    headers: { x-litellm-end-user: "\${{ context.account_id }}" }
    metadata: { tenant: "\${{ context.account_id }}" }
nodes:
  answer: { kind: llm, prompt: Answer briefly. }
edges:
  - { from: START, to: answer }
  - { from: answer, to: END }
`;

let dir: string;
let sim: ProviderSim;
let child: ChildProcess;
let url: string;
let output = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-model-creds-"));
  sim = await startProviderSim();
  mkdirSync(join(dir, "graphs"));
  writeFileSync(join(dir, "graphs", "tenant-chat.yaml"), spec(sim.openaiUrl));
  writeFileSync(
    join(dir, "keys.json"),
    JSON.stringify({ [TENANTS.a.server]: "tenant-a", [TENANTS.b.server]: "tenant-b" }),
  );
  child = spawn(
    process.execPath,
    [BIN, "serve", "graphs", "--port", "0", "--host", "127.0.0.1"].concat([
      "--api-keys",
      "keys.json",
      "--checkpointer",
      "sqlite",
    ]),
    { cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, OPENAI_API_KEY: "" } },
  );
  child.stderr?.on("data", (b) => {
    output += b;
  });
  url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (b) => {
      output += b;
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (m) resolve(m[0]);
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every file under .graphspec/ (the SQLite database, its WAL journals, the records), as text. */
function databaseBytes(folder = join(dir, ".graphspec")): string {
  return readdirSync(folder, { withFileTypes: true })
    .map((f) =>
      f.isDirectory()
        ? databaseBytes(join(folder, f.name))
        : readFileSync(join(folder, f.name)).toString("latin1"),
    )
    .join("\n");
}

describe("per-run model credentials through graphspec serve", () => {
  it("sends each tenant's key, user and metadata, stores none of the keys, and counts the gateway's cost", async () => {
    const seen: Record<string, string> = {};
    for (const [name, t] of Object.entries(TENANTS)) {
      sim.push({
        text: `hello ${name}`,
        usage: { input_tokens: 12, output_tokens: 3 },
        headers: { "x-litellm-response-cost": name === "a" ? "0.0042" : "0.0017" },
      });
      const client = new Client({
        apiUrl: url,
        apiKey: t.server,
        callerOptions: { maxRetries: 0 },
      });
      const thread = await client.threads.create();
      const events: unknown[] = [];
      for await (const e of client.runs.stream(thread.thread_id, "tenant-chat", {
        input: { messages: [{ role: "user", content: "hi" }] },
        context: { model_key: t.model, account_id: t.account },
        streamMode: ["values", "messages-tuple", "events"],
      }))
        events.push(e);
      const state = await client.threads.getState(thread.thread_id);
      const messages = (state.values as { messages: Record<string, unknown>[] }).messages;
      const answer = messages.at(-1)!;
      expect(answer.content).toBe(`hello ${name}`);
      const usage = (answer.response_metadata as { usage?: { cost?: number } }).usage;
      expect(usage?.cost).toBe(name === "a" ? 0.0042 : 0.0017);
      seen[name] = JSON.stringify({
        events,
        state,
        thread: await client.threads.get(thread.thread_id),
      });
    }

    // A gateway that refuses the key and echoes it back: the run's error shows it masked.
    sim.push({ status: 401, text: `Incorrect API key provided: ${TENANTS.a.model}` });
    const client = new Client({
      apiUrl: url,
      apiKey: TENANTS.a.server,
      callerOptions: { maxRetries: 0 },
    });
    const thread = await client.threads.create();
    const failed: { event: string; data: unknown }[] = [];
    for await (const e of client.runs.stream(thread.thread_id, "tenant-chat", {
      input: { messages: [{ role: "user", content: "hi" }] },
      context: { model_key: TENANTS.a.model, account_id: TENANTS.a.account },
    }))
      failed.push(e);
    const error = failed.find((e) => e.event === "error");
    expect(JSON.stringify(error?.data)).toContain("Incorrect API key provided: ***");
    seen.failed = JSON.stringify({
      failed,
      state: await client.threads.getState(thread.thread_id),
      runs: await client.runs.list(thread.thread_id),
    });
    sim.requests.splice(2);

    expect(sim.requests).toHaveLength(2);
    for (const [i, t] of [TENANTS.a, TENANTS.b].entries()) {
      const r = sim.requests[i]!;
      expect(r.headers.authorization).toBe(`Bearer ${t.model}`);
      expect(r.headers["x-litellm-end-user"]).toBe(t.account);
      expect(r.body.user).toBe(t.account);
      expect(r.body.metadata).toEqual({ tenant: t.account });
    }

    const db = databaseBytes();
    // The search would pass on an empty store: the threads' messages are there.
    expect(db).toContain("hello b");
    for (const t of Object.values(TENANTS)) {
      expect(db).not.toContain(t.model);
      expect(output).not.toContain(t.model);
      for (const s of Object.values(seen)) expect(s).not.toContain(t.model);
    }
  });
});
