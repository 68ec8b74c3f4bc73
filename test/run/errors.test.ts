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
      expect(stub.requests).toHaveLength(1);
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
