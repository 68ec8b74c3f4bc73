/**
 * Model options read from the run's context (docs/spec.md, "Credentials and headers per run"),
 * through the package entry with the real ChatOpenAI and ChatAnthropic over HTTP against the
 * provider simulator: runs of one compiled graph at once, each with its own key; Anthropic's key
 * and headers; a gateway's cost in the executor's usage; a context key a run does not give.
 * The service-shaped test (two tenants through `graphspec serve`) is
 * test/server/model-credentials.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile, createExecutor } from "../src/index.js";
import { type ProviderSim, startProviderSim } from "./support/provider-sim/server.js";

const spec = (name: string, model: string) => `version: 1
name: ${name}
state:
  messages: { type: messages }
context:
  model_key: { type: string, secret: true }
  account_id: { type: string }
models:
${model}
nodes:
  answer: { kind: llm, prompt: Answer briefly. }
edges:
  - { from: START, to: answer }
  - { from: answer, to: END }
`;

const OPENAI = `  default:
    model: "openai:gpt-4o-mini"
    base_url: "\${{ env.SIM_OPENAI_URL }}"
    api_key: "\${{ context.model_key }}"
    user: "\${{ context.account_id }}"
    headers: { x-litellm-end-user: "\${{ context.account_id }}" }
    metadata: { tenant: "\${{ context.account_id }}" }`;

const ANTHROPIC = `  default:
    model: "anthropic:claude-sonnet-4-5"
    base_url: "\${{ env.SIM_ANTHROPIC_URL }}"
    api_key: "\${{ context.model_key }}"
    headers: { x-end-user: "\${{ context.account_id }}" }`;

let dir: string;
let sim: ProviderSim;
let env: Record<string, string>;
beforeAll(async () => {
  sim = await startProviderSim();
  env = { SIM_OPENAI_URL: sim.openaiUrl, SIM_ANTHROPIC_URL: sim.anthropicUrl };
  dir = mkdtempSync(join(tmpdir(), "graphspec-run-creds-"));
  mkdirSync(join(dir, "graphs"));
  writeFileSync(join(dir, "graphs", "openai-tenant.yaml"), spec("openai-tenant", OPENAI));
  writeFileSync(join(dir, "graphs", "anthropic-tenant.yaml"), spec("anthropic-tenant", ANTHROPIC));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const hello = { messages: [{ role: "user", content: "hello" }] };

describe("model options from the run's context", () => {
  it("runs of one compiled graph at once each send their own key, user, header and metadata", async () => {
    const graph = await compile(join(dir, "graphs", "openai-tenant.yaml"), { env });
    const tenants = ["a", "b", "c", "d"];
    sim.requests.length = 0;
    sim.push(...tenants.map((t) => `hi ${t}`));
    await Promise.all(
      tenants.map((t) =>
        graph.invoke(hello, { context: { model_key: `sk-key-of-${t}`, account_id: `acct-${t}` } }),
      ),
    );
    const sent = sim.requests.map((r) => ({
      auth: r.headers.authorization,
      endUser: r.headers["x-litellm-end-user"],
      user: r.body.user,
      metadata: r.body.metadata,
    }));
    expect(sent).toHaveLength(tenants.length);
    for (const t of tenants) {
      expect(sent).toContainEqual({
        auth: `Bearer sk-key-of-${t}`,
        endUser: `acct-${t}`,
        user: `acct-${t}`,
        metadata: { tenant: `acct-${t}` },
      });
    }
  });

  it("gives an agent's every step the run's key", async () => {
    writeFileSync(
      join(dir, "graphs", "agent-tenant.yaml"),
      spec("agent-tenant", OPENAI)
        .replace(
          "answer: { kind: llm, prompt: Answer briefly. }",
          "answer: { kind: agent, system: Answer briefly., tools: [echo], max_steps: 4 }",
        )
        .replace(
          "nodes:",
          "tools:\n  echo: { module: ./echo.mjs, export: echo, description: Echo., schema: { type: object, properties: { text: { type: string } } } }\nnodes:",
        ),
    );
    writeFileSync(join(dir, "graphs", "echo.mjs"), "export const echo = ({ text }) => text;\n");
    const graph = await compile(join(dir, "graphs", "agent-tenant.yaml"), { env });
    sim.requests.length = 0;
    for (const t of ["a", "b"]) {
      // A tool call, then the answer: two model calls of one agent step each.
      sim.push({ tool_calls: [{ name: "echo", args: { text: t } }] }, `hi ${t}`);
      await graph.invoke(hello, {
        context: { model_key: `sk-agent-${t}`, account_id: `acct-${t}` },
      });
    }
    expect(sim.requests.map((r) => r.headers.authorization)).toEqual([
      "Bearer sk-agent-a",
      "Bearer sk-agent-a",
      "Bearer sk-agent-b",
      "Bearer sk-agent-b",
    ]);
  });

  it("gives Anthropic the run's key and headers", async () => {
    const graph = await compile(join(dir, "graphs", "anthropic-tenant.yaml"), { env });
    sim.requests.length = 0;
    sim.push("hi");
    await graph.invoke(hello, { context: { model_key: "sk-ant-tenant-a", account_id: "acct-a" } });
    expect(sim.requests[0]?.api).toBe("anthropic");
    expect(sim.requests[0]?.headers["x-api-key"]).toBe("sk-ant-tenant-a");
    expect(sim.requests[0]?.headers["x-end-user"]).toBe("acct-a");
  });

  it("sums a gateway's cost into the run's usage, and masks the key in the result", async () => {
    const exec = createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory", env });
    sim.push(
      { text: "one", headers: { "x-litellm-response-cost": "0.25" } },
      { text: "two", headers: { "x-litellm-response-cost": "0.5" } },
    );
    const context = { model_key: "sk-tenant-secret-77", account_id: "acct-a" };
    const first = await exec.run("openai-tenant", { input: hello, context });
    const second = await exec.run("openai-tenant", {
      input: hello,
      context,
      threadId: first.threadId,
    });
    expect(first.usage.cost).toBe(0.25);
    expect(second.usage.cost).toBe(0.5);
    expect(JSON.stringify([first, second])).not.toContain("sk-tenant-secret-77");
    await exec.close();
  });

  it("fails the node, naming the model and the option, when the run does not give the key", async () => {
    const exec = createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory", env });
    const r = await exec.run("openai-tenant", { input: hello, context: { account_id: "acct-a" } });
    expect(r.status).toBe("failed");
    expect(r.error?.message).toContain(
      "model `default`: `api_key` could not be computed: the run's context has no `model_key`",
    );
    await exec.close();
  });
});
