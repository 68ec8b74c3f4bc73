/** Failures a run can meet, each as a RunResult error with a code, the node where there is one, and a hint. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor } from "../../src/run/executor.js";
import { startOpenAIStub } from "../support/openai-stub.js";

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

describe("errors as results", () => {
  it("a node timeout", async () => {
    const r = await exec().run("slow");
    expect(r).toMatchObject({ status: "failed", error: { code: "timeout" } });
    expect(r.error!.hint).toMatch(/timeout_ms/);
  });

  it("a provider's rate limit, found through the wrapped causes, is `throttled`", async () => {
    const stub = await startOpenAIStub([
      { status: 429, text: "Rate limit reached for gpt-4o-mini" },
    ]);
    stubUrl = stub.url;
    try {
      const r = await exec().run("chat", { input: { messages: [] } });
      expect(r).toMatchObject({ status: "failed", error: { code: "throttled" } });
      expect(r.error!.message).toMatch(/Rate limit reached/);
    } finally {
      await stub.close();
    }
  });
});
