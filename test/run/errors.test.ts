/** Failures a run can meet, each as a RunResult error with a code, the node where there is one, and a hint. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createExecutor } from "../../src/run/executor.js";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
writeFileSync(
  join(dir, "slow.mjs"),
  "export default () => new Promise((r) => setTimeout(() => r({}), 2000));\n",
);
const graph = (name: string, text: string) =>
  writeFileSync(join(dir, "graphs", `${name}.yaml`), `version: 1\nname: ${name}\n${text}`);
/** Runs `check` with an OpenAI-compatible stub answering `turns`, its URL as the specs' STUB_URL. */
async function withStub(
  turns: Parameters<typeof startOpenAIStub>[0],
  check: (stub: OpenAIStub) => Promise<void>,
): Promise<void> {
  const stub = await startOpenAIStub(turns);
  stubUrl = stub.url;
  try {
    await check(stub);
  } finally {
    await stub.close();
  }
}

const exec = () =>
  createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory", env: { STUB_URL: stubUrl } });
let stubUrl = "";

graph(
  "slow",
  `state:
  log: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  wait: { kind: function, module: ../slow.mjs, timeout_ms: 30 }
edges:
  - { from: START, to: wait }
  - { from: wait, to: END }
`,
);
graph(
  "chat",
  `state:
  messages: { type: messages }
models:
  default: { model: "openai:gpt-4o-mini", base_url: "\${{ env.STUB_URL }}", api_key: test, max_retries: 0 }
nodes:
  talk: { kind: llm, prompt: hi }
edges:
  - { from: START, to: talk }
  - { from: talk, to: END }
`,
);

graph(
  "chat-keyless",
  `state:
  messages: { type: messages }
models:
  default: { model: "openai:gpt-4o-mini", base_url: "\${{ env.STUB_URL }}", max_retries: 0 }
nodes:
  talk: { kind: llm, prompt: hi }
edges:
  - { from: START, to: talk }
  - { from: talk, to: END }
`,
);

graph(
  "chat-timeout",
  `state:
  messages: { type: messages }
models:
  default: { model: "openai:gpt-4o-mini", base_url: "\${{ env.STUB_URL }}", api_key: test, max_retries: 0, timeout_ms: 200 }
nodes:
  talk: { kind: llm, prompt: hi }
edges:
  - { from: START, to: talk }
  - { from: talk, to: END }
`,
);
graph(
  "chat-stall",
  `state:
  messages: { type: messages }
  log: { type: array, items: { type: string }, reducer: append, default: [] }
models:
  default: { model: "openai:gpt-4o-mini", base_url: "\${{ env.STUB_URL }}", api_key: test }
  patient: { model: "openai:gpt-4o-mini", base_url: "\${{ env.STUB_URL }}", api_key: test, timeout_ms: 1500 }
nodes:
  first: { kind: set, values: { log: first ran } }
  talk: { kind: llm, prompt: hi }
  again: { kind: llm, model: patient, prompt: hi }
edges:
  - { from: START, to: first }
  - { from: first, to: talk }
  - { from: talk, to: again }
  - { from: again, to: END }
`,
);
graph(
  "agent-stall",
  `state:
  messages: { type: messages }
models:
  default: { model: "openai:gpt-4o-mini", base_url: "\${{ env.STUB_URL }}", api_key: test }
nodes:
  work: { kind: agent, tools: [], max_steps: 3 }
edges:
  - { from: START, to: work }
  - { from: work, to: END }
`,
);
const scriptedFailure = (error: string) =>
  createExecutor({
    dir: join(dir, "graphs"),
    checkpointer: "memory",
    scripts: { talker: [{ error }] },
  }).run("scripted-chat", { input: { messages: [] } });
graph(
  "scripted-chat",
  `state:
  messages: { type: messages }
models:
  default: { model: "scripted:talker" }
nodes:
  talk: { kind: llm, prompt: hi }
edges:
  - { from: START, to: talk }
  - { from: talk, to: END }
`,
);

describe("errors as results", () => {
  it("a node timeout", async () => {
    const r = await exec().run("slow");
    expect(r).toMatchObject({ status: "failed", error: { code: "timeout" } });
    expect(r.error!.hint).toMatch(/timeout_ms/);
  });

  it("a provider's rate limit, found through the wrapped causes, is `throttled`", async () => {
    await withStub([{ status: 429, text: "Rate limit reached for gpt-4o-mini" }], async () => {
      const r = await exec().run("chat", { input: { messages: [] } });
      expect(r).toMatchObject({ status: "failed", error: { code: "throttled" } });
      expect(r.error!.message).toMatch(/Rate limit reached/);
    });
  });
});

describe("errors named for what they are", () => {
  it("a provider's request that passes the model's timeout_ms is `timeout`, not `node-error`", async () => {
    await withStub([{ stall: true }], async (stub) => {
      const r = await exec().run("chat-timeout", { input: { messages: [] } });
      expect(r).toMatchObject({ status: "failed", error: { code: "timeout", node: "talk" } });
      expect(r.error!.message).toMatch(/timed out/i);
      expect(r.error!.hint).toMatch(/timeout_ms/);
      // Not retried. (The deadline counts from the call: on a busy machine it can pass before
      // the request is sent at all.)
      expect(stub.requests.length).toBeLessThanOrEqual(1);
    });
  });

  it("a model that never answers, with no timeout_ms, fails at the default model timeout naming the model and node; the thread goes on", async () => {
    // The default (10 minutes) made short for the test; `timeout_ms` overrides it per model.
    await withStub(
      [
        { stall: true },
        { text: "never finished", stall: "mid-stream" },
        { text: "hello" },
        { text: "never finished", stall: "mid-stream" },
      ],
      async () => {
        const e = createExecutor({
          dir: join(dir, "graphs"),
          checkpointer: "memory",
          env: { STUB_URL: stubUrl },
          modelTimeoutMs: 1000,
        });
        const failed = await e.run("chat-stall", { input: { messages: [] } });
        expect(failed).toMatchObject({
          status: "failed",
          next: ["talk"],
          output: { log: ["first ran"] },
        });
        expect(failed.error).toMatchObject({ code: "timeout", node: "talk" });
        expect(failed.error!.message).toBe(
          "model `default` (`openai:gpt-4o-mini`) timed out: no answer within 1000 ms",
        );
        expect(failed.error!.hint).toMatch(/`models\.default\.timeout_ms`/);
        // The deadline covers the whole call: an answer that stops midway ends there too.
        const stalled = await e.resume("chat-stall", { threadId: failed.threadId });
        expect(stalled.error).toMatchObject({ code: "timeout", node: "talk" });
        // The checkpoint before the call is kept: once the provider answers, the thread goes on.
        const next = await e.resume("chat-stall", { threadId: failed.threadId });
        expect(next.error).toMatchObject({ code: "timeout", node: "again" });
        expect(next.error!.message).toBe(
          "model `patient` (`openai:gpt-4o-mini`) timed out: no answer within 1500 ms",
        );
        expect(next.output.log).toEqual(["first ran"]);
        await e.close();
      },
    );
  });

  it("an agent's model call that stops midway through a streamed answer fails at the deadline too", async () => {
    await withStub([{ text: "never finished", stall: "mid-stream" }], async () => {
      const e = createExecutor({
        dir: join(dir, "graphs"),
        checkpointer: "memory",
        env: { STUB_URL: stubUrl },
        modelTimeoutMs: 300,
      });
      let last: unknown;
      for await (const event of e.stream("agent-stall", {
        input: { messages: [{ role: "user", content: "hi" }] },
        graphStream: { modes: ["messages"], events: true },
      }))
        last = event;
      expect(last).toMatchObject({
        type: "failed",
        result: { error: { code: "timeout", node: "work" } },
      });
      await e.close();
    });
  });

  it("a 429 rate limit is `throttled` with reason `rate-limit`, and says to retry", async () => {
    await withStub(
      [{ status: 429, text: "Rate limit reached for gpt-4o-mini on requests per min (RPM)" }],
      async () => {
        const r = await exec().run("chat", { input: { messages: [] } });
        expect(r.error).toMatchObject({ code: "throttled", reason: "rate-limit" });
        expect(r.error!.message).toMatch(/rate limit/i);
        expect(r.error!.hint).toMatch(/retry/);
      },
    );
  });

  it("a 429 with `insufficient_quota` is `throttled` with reason `quota`, and says retrying will not help", async () => {
    await withStub(
      [
        {
          status: 429,
          errorType: "insufficient_quota",
          text: "You exceeded your current quota, please check your plan and billing details.",
        },
      ],
      async () => {
        const r = await exec().run("chat", { input: { messages: [] } });
        expect(r.error).toMatchObject({ code: "throttled", reason: "quota" });
        expect(r.error!.message).toMatch(/quota/);
        expect(r.error!.hint).toMatch(/billing|plan/);
        expect(r.error!.hint).not.toMatch(/retry later/);
      },
    );
  });

  it("a 401 is `unauthorized`, and the hint says where the key comes from", async () => {
    await withStub(
      [
        {
          status: 401,
          errorType: "invalid_request_error",
          text: "Incorrect API key provided: test.",
        },
      ],
      async () => {
        const r = await exec().run("chat", { input: { messages: [] } });
        expect(r.error).toMatchObject({ code: "unauthorized", node: "talk", phase: "node" });
        expect(r.error!.message).toMatch(/Incorrect API key/);
        expect(r.error!.hint).toMatch(/OPENAI_API_KEY/);
        expect(r.error!.hint).toMatch(/api_key/);
      },
    );
  });

  it("a model with no key anywhere is `unauthorized` before any request, with the same hint", async () => {
    vi.stubEnv("OPENAI_API_KEY", undefined);
    try {
      await withStub(["never sent"], async (stub) => {
        const r = await exec().run("chat-keyless", { input: { messages: [] } });
        expect(r.error).toMatchObject({ code: "unauthorized", node: "talk" });
        expect(r.error!.hint).toMatch(/OPENAI_API_KEY/);
        expect(stub.requests).toHaveLength(0);
      });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("a scripted error text is classified like the provider's own: timeout, rate limit, quota", async () => {
    const timedOut = await scriptedFailure("Request timed out.");
    expect(timedOut.error).toMatchObject({ code: "timeout", node: "talk" });
    const limited = await scriptedFailure("429 Rate limit reached for gpt-4o-mini");
    expect(limited.error).toMatchObject({ code: "throttled", reason: "rate-limit" });
    const quota = await scriptedFailure(
      "429 You exceeded your current quota, please check your plan and billing details.",
    );
    expect(quota.error).toMatchObject({ code: "throttled", reason: "quota" });
    const other = await scriptedFailure("the model fell over");
    expect(other.error).toMatchObject({ code: "node-error", message: "the model fell over" });
  });
});
