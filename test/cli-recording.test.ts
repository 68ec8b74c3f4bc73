/**
 * `graphspec run --record FILE` and `--replay FILE` (docs/testing.md, "Recordings"), as a user
 * runs them: the built CLI, the real ChatOpenAI and ChatAnthropic over HTTP against the provider
 * simulator for the recording, and the simulator stopped for the replay — which must print the
 * same run, fail naming the call when the graph asks something else, and never hold the key.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, describe, expect, it } from "vitest";
import { startProviderSim } from "./support/provider-sim/server.js";

const BIN = join(import.meta.dirname, "..", "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-cli-recording-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));

const KEY = "sk-recording-secret-123456";

const spec = (name: string, model: string, prompt: string) => `version: 1
name: ${name}
state:
  messages: { type: messages }
models:
  default:
${model}
nodes:
  answer: { kind: llm, prompt: "${prompt}" }
edges:
  - { from: START, to: answer }
  - { from: answer, to: END }
`;
const OPENAI = `    model: "openai:gpt-4o-mini"
    base_url: "\${{ env.SIM_OPENAI_URL }}"
    api_key: "\${{ env.MY_PROVIDER_KEY }}"`;
const ANTHROPIC = `    model: "anthropic:claude-sonnet-4-5"
    base_url: "\${{ env.SIM_ANTHROPIC_URL }}"
    api_key: "\${{ env.MY_PROVIDER_KEY }}"`;

/** The CLI, not blocking this process: the simulator answers from it. */
function graphspec(env: Record<string, string>, ...args: string[]) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (status) => done({ status, stdout, stderr }));
  });
}

/**
 * The output with the ids LangGraph makes afresh in every run (message and checkpoint UUIDs)
 * made alike: everything the provider answered (its ids too) is compared byte for byte.
 */
const sameIds = (text: string) =>
  text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>");

const hello = JSON.stringify({ messages: [{ role: "user", content: "hello" }] });

/** Records a run of `graph` against a fresh simulator with the key set, then stops the simulator. */
async function record(graph: string, file: string, ...flags: string[]) {
  const sim = await startProviderSim([
    { text: "Hi there!", usage: { input_tokens: 7, output_tokens: 3 } },
  ]);
  const env = {
    SIM_OPENAI_URL: sim.openaiUrl,
    SIM_ANTHROPIC_URL: sim.anthropicUrl,
    MY_PROVIDER_KEY: KEY,
  };
  const run = await graphspec(env, "run", graph, "--input", hello, ...flags, "--record", file);
  await sim.close();
  expect(sim.requests).toHaveLength(1);
  return { run };
}

const memory = ["--checkpointer", "memory", "--thread", "t1"];

describe("graphspec run --record / --replay", () => {
  for (const [provider, model] of [
    ["openai", OPENAI],
    ["anthropic", ANTHROPIC],
  ] as const) {
    it(`${provider}: a replay with the provider gone prints the recorded run byte for byte`, async () => {
      writeFileSync(
        join(dir, "graphs", `${provider}.yaml`),
        spec(provider, model, "Answer briefly."),
      );
      const file = `${provider}.recording.json`;
      const { run } = await record(provider, file, ...memory, "--json");
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout).output.messages.at(-1).content).toBe("Hi there!");
      expect(readFileSync(join(dir, file), "utf8")).not.toContain(KEY);
      // No key, no simulator: the replay is offline.
      const replay = await graphspec(
        {},
        "run",
        provider,
        "--input",
        hello,
        ...memory,
        "--json",
        "--replay",
        file,
      );
      expect(replay.stderr).toBe("");
      expect(sameIds(replay.stdout)).toBe(sameIds(run.stdout));
      expect(replay.status).toBe(0);
    });
  }

  it("the printed run (--progress) replays the same, streamed; the key is masked even where it is sent in the body", async () => {
    writeFileSync(
      join(dir, "graphs", "streamed.yaml"),
      // The key in the request's body too (as `user`): masked by value, and masked alike in the
      // replay's requests, whatever key the replay has.
      spec("streamed", `${OPENAI}\n    user: "\${{ env.MY_PROVIDER_KEY }}"`, "Answer briefly."),
    );
    const { run } = await record("streamed", "streamed.json", ...memory, "--progress");
    expect(run.status).toBe(0);
    const text = readFileSync(join(dir, "streamed.json"), "utf8");
    expect(text).toContain("text/event-stream");
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text).graphspec_recording).toBe(1);
    expect(text).toContain('"user": "***"');
    const replay = await graphspec(
      { MY_PROVIDER_KEY: "sk-another-key-in-ci-0000" },
      "run",
      "streamed",
      "--input",
      hello,
      ...memory,
      "--progress",
      "--replay",
      "streamed.json",
    );
    expect(sameIds(replay.stdout)).toBe(sameIds(run.stdout));
    expect(sameIds(replay.stderr)).toBe(sameIds(run.stderr));
  });

  it("a changed prompt fails the replay, naming the call and showing what differs", async () => {
    writeFileSync(join(dir, "graphs", "changed.yaml"), spec("changed", OPENAI, "Answer briefly."));
    await record("changed", "changed.json", ...memory, "--json");
    writeFileSync(
      join(dir, "graphs", "changed.yaml"),
      spec("changed", OPENAI, "Answer at length."),
    );
    const replay = await graphspec(
      {},
      "run",
      "changed",
      "--input",
      hello,
      ...memory,
      "--json",
      "--replay",
      "changed.json",
    );
    expect(replay.status).toBe(1);
    expect(replay.stderr).toContain(
      "replay: call 1 (model `default`, POST /v1/chat/completions) differs from changed.json",
    );
    expect(replay.stderr).toMatch(/^-\s+"content": "Answer briefly\.",?$/m);
    expect(replay.stderr).toMatch(/^\+\s+"content": "Answer at length\.",?$/m);
    expect(JSON.parse(replay.stdout).status).toBe("failed");
  });

  it("graphspec test: a fixture's `recording:` answers the models offline, and a changed prompt fails the test naming the call", async () => {
    writeFileSync(
      join(dir, "graphs", "fixtured.yaml"),
      spec("fixtured", OPENAI, "Answer briefly."),
    );
    await record("fixtured", "fixtured.json", ...memory, "--json");
    writeFileSync(
      join(dir, "graphs", "fixtured.test.yaml"),
      `tests:
  - name: answers from the recording
    input: { messages: [{ role: user, content: hello }] }
    recording: ../fixtured.json
    expect:
      output: { messages: [{ content: hello }, { content: Answer briefly. }, { content: Hi there! }] }
      usage: { inputTokens: 7, outputTokens: 3 }
`,
    );
    const passed = await graphspec({}, "test", "graphs/fixtured.test.yaml");
    expect(passed.stdout + passed.stderr).toContain("answers from the recording");
    expect(passed.status).toBe(0);
    writeFileSync(
      join(dir, "graphs", "fixtured.yaml"),
      spec("fixtured", OPENAI, "Answer at length."),
    );
    const failed = await graphspec({}, "test", "graphs/fixtured.test.yaml");
    expect(failed.status).toBe(1);
    const said = failed.stdout + failed.stderr;
    expect(said).toContain("fixtured.test.yaml:4:");
    expect(said).toContain("replay: call 1 (model `default`, POST /v1/chat/completions) differs");
    expect(said).toMatch(/^\s*-\s+"content": "Answer briefly\.",?$/m);
    expect(said).toMatch(/^\s*\+\s+"content": "Answer at length\.",?$/m);
  });

  it("graphspec dev --replay answers the official SDK's runs from the recording, again and again", async () => {
    writeFileSync(join(dir, "graphs", "served.yaml"), spec("served", OPENAI, "Answer briefly."));
    await record("served", "served.json", ...memory, "--json");
    const child = spawn(
      process.execPath,
      [BIN, "dev", "--port", "0", "--checkpointer", "memory", "--replay", "served.json"],
      { cwd: dir, env: { ...process.env, NO_COLOR: "1" } },
    );
    try {
      let out = "";
      child.stdout.on("data", (d) => {
        out += d;
      });
      const url = await new Promise<string>((found, failed) => {
        child.stdout.on("data", () => {
          const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
          if (m) found(m[0]);
        });
        child.on("exit", (code) => failed(new Error(`dev exited ${code}`)));
      });
      const client = new Client({ apiUrl: url });
      for (const _ of [1, 2]) {
        const thread = await client.threads.create();
        const values = (await client.runs.wait(thread.thread_id, "served", {
          input: JSON.parse(hello),
        })) as { messages: { content: string }[] };
        expect(values.messages.at(-1)?.content).toBe("Hi there!");
      }
    } finally {
      child.kill("SIGTERM");
    }
  }, 60_000);

  it("--replay of a file that is not a recording is a usage error", async () => {
    writeFileSync(join(dir, "not-a-recording.json"), "{}");
    const r = await graphspec({}, "run", "changed", "--replay", "not-a-recording.json");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("not-a-recording.json is not a graphspec recording");
  });
});
