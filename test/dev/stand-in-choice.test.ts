/**
 * A run's stand-in for its models, through the official SDK against `graphspec dev` (docs/dev.md,
 * "Standing in for models"): the assistant lists what dev offers (the fixture's tests, the
 * recording beside the spec), `config.configurable.graphspec_stand_in` chooses one per run — the
 * next run without it reaches the provider — and an id dev does not offer, a path, or any choice on
 * `graphspec serve` is a 422 naming the field. No provider key; the provider URL is a closed port.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, type DevServer, startDevServer } from "../support/dev-server.js";

const OFFLINE = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" };
const FIXTURE = "graphs/ticket-summary.test.yaml";
const SCRIPTS = `${FIXTURE}#the default model summarises the ticket the lookup found`;
const RECORDING = "graphs/ticket-summary.recording.json";
const input = { ticket_id: "T-1001" };

let dev: DevServer;
beforeAll(async () => {
  dev = await startDevServer({ repoGraphs: true, env: OFFLINE });
}, 60_000);
afterAll(() => dev?.stop());

const standIn = (id: unknown) => ({ configurable: { graphspec_stand_in: id } });

/** The 422 a run creation answers, as JSON. */
async function refused(url: string, id: unknown) {
  const res = await fetch(`${url}/runs/wait`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ assistant_id: "ticket-summary", input, config: standIn(id) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
}

describe("graphspec dev: a stand-in for the models, per run", () => {
  it("lists the fixture's tests with scripts and the recording beside the spec", async () => {
    const assistant = await new Client({ apiUrl: dev.url }).assistants.get("ticket-summary");
    const meta = (
      assistant.metadata as { graphspec: { stand_ins: unknown[]; without_stand_in: string } }
    ).graphspec;
    // A run that chooses none reaches the provider: this dev was given no --scripts.
    expect(meta.without_stand_in).toBe("provider");
    const offers = meta.stand_ins;
    expect(offers).toContainEqual({
      id: SCRIPTS,
      kind: "scripts",
      file: FIXTURE,
      test: "the default model summarises the ticket the lookup found",
    });
    expect(offers).toContainEqual({ id: RECORDING, kind: "recording", file: RECORDING });
    // A test without scripts or a recording stands in for nothing: not offered.
    expect(JSON.stringify(offers)).not.toContain("is refused before the lookup runs");
  });

  it("answers from the chosen scripts, then from the recording, and the run without one reaches the provider", async () => {
    const client = new Client({ apiUrl: dev.url });
    const scripted = await client.runs.wait(null, "ticket-summary", {
      input,
      config: standIn(SCRIPTS),
    });
    expect(scripted).toMatchObject({ summary: "Ada cannot log in." });
    const replayed = await client.runs.wait(null, "ticket-summary", {
      input,
      config: standIn(RECORDING),
    });
    expect(replayed).toMatchObject({ summary: "Ada has been locked out since Monday." });
    const thread = await client.threads.create();
    await expect(client.runs.wait(thread.thread_id, "ticket-summary", { input })).rejects.toThrow(
      /^unauthorized: .*OPENAI_API_KEY/,
    );
    const state = await client.threads.getState(thread.thread_id);
    expect((state.values as { summary?: string }).summary ?? "").toBe("");
  });

  it("keeps the choice of a background run, queued and then run", async () => {
    const client = new Client({ apiUrl: dev.url });
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "ticket-summary", {
      input,
      config: standIn(SCRIPTS),
    });
    await client.runs.join(thread.thread_id, run.run_id);
    const state = await client.threads.getState(thread.thread_id);
    expect(state.values).toMatchObject({ summary: "Ada cannot log in." });
  });

  it("refuses an id it does not offer, a path, and a value that is not an id, naming the field", async () => {
    for (const id of [
      `${FIXTURE}#no such test`,
      "../../etc/passwd",
      "/etc/passwd",
      "graphs/../package.json",
      "graphs/helpdesk.test.yaml#looks a ticket up",
    ]) {
      const { status, body } = await refused(dev.url, id);
      expect(status, id).toBe(422);
      expect(body.field).toBe("config.configurable.graphspec_stand_in");
      expect(body.message).toContain("is not offered");
      expect(body.hint).toContain(SCRIPTS);
    }
    const wrongType = await refused(dev.url, 7);
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.field).toBe("config.configurable.graphspec_stand_in");
  });
});

describe("graphspec serve offers no stand-in", () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    child = spawn(
      process.execPath,
      [BIN, "serve", "graphs", "--no-auth", "--port", "0", "--checkpointer", "memory"],
      { cwd: dev.root, env: { ...process.env, ...OFFLINE }, stdio: ["ignore", "pipe", "pipe"] },
    );
    url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout?.on("data", (b) => {
        out += b;
        const m = /http:\/\/[\d.]+:\d+/.exec(out);
        if (m) resolve(m[0].replace("0.0.0.0", "127.0.0.1"));
      });
      child.once("exit", (code) => reject(new Error(`serve exited (${code})`)));
    });
  }, 60_000);
  afterAll(() => {
    child?.kill("SIGTERM");
  });

  it("lists none and refuses a run that names one, even one dev would offer", async () => {
    const assistant = await new Client({ apiUrl: url }).assistants.get("ticket-summary");
    expect(assistant.metadata).not.toHaveProperty("graphspec.stand_ins");
    const { status, body } = await refused(url, SCRIPTS);
    expect(status).toBe(422);
    expect(body.field).toBe("config.configurable.graphspec_stand_in");
    expect(body.message).toContain("graphspec dev only");
  });
});
