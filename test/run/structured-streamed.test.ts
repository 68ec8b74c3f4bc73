/**
 * Structured output on the real LangChain clients, invoked and streamed: a streamed run (the
 * server's every run, `executor.stream`) makes the client stream the answer, and
 * @langchain/anthropic's structured-output parser then reads the tool call's arguments from the
 * content blocks, where they are still `input_json_delta` pieces — it answered null, and the node
 * failed with `invalid-output` after asking twice (a hand-written LangGraph program with
 * `withStructuredOutput` gets the same null). graphspec takes the forced call's parsed arguments.
 * An answer the provider says it cut at the token limit, or declined, fails the node at once
 * saying which (asking again to match the schema cannot help), invoked or streamed where the
 * client reports it. Through the provider simulator and, for the server, the official SDK.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createExecutor,
  type Executor,
  folderCatalog,
  type RunningServer,
  startServer,
} from "../../src/index.js";
import { type ProviderSim, startProviderSim } from "../support/provider-sim/server.js";
import { simEnv, simModels } from "../support/provider-sim/spec-models.js";
import { streamResult } from "../support/stream-result.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-structured-streamed-"));
mkdirSync(join(dir, "graphs"));
writeFileSync(join(dir, "package.json"), "{}");
const MODELS = simModels();
for (const [api, model] of Object.entries(MODELS))
  writeFileSync(
    join(dir, "graphs", `classify-${api}.yaml`),
    `version: 1
name: classify-${api}
state:
  messages: { type: messages }
  priority: { type: string }
  reason: { type: string }
models:
  default: ${model}
nodes:
  classify:
    kind: llm
    prompt: "Ticket: my invoice is wrong"
    output:
      schema:
        type: object
        properties:
          priority: { type: string, enum: [low, normal, urgent] }
          reason: { type: string }
        required: [priority, reason]
    write: { priority: "\${{ output.priority }}", reason: "\${{ output.reason }}" }
edges:
  - { from: START, to: classify }
  - { from: classify, to: END }
`,
  );

const ANSWER = { priority: "urgent", reason: "a billing error, said with some heat" };
/** The run's result, invoked or streamed. */
const resultOf = (graph: string, streamed: boolean) =>
  streamed ? streamResult(exec.stream(graph, { input: {} })) : exec.run(graph, { input: {} });

let sim: ProviderSim;
let exec: Executor;
let server: RunningServer;
beforeAll(async () => {
  sim = await startProviderSim();
  exec = createExecutor({
    dir: join(dir, "graphs"),
    checkpointer: "memory",
    env: simEnv(sim),
  });
  server = await startServer({
    exec,
    graphs: await folderCatalog(join(dir, "graphs")),
    auth: undefined,
    port: 0,
  });
});
afterAll(async () => {
  await server?.close(1000);
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(Object.keys(MODELS))("a structured answer from %s's client", (api) => {
  const graph = `classify-${api}`;

  it("invoked: the node writes it, asking once", async () => {
    const asked = sim.requests.length;
    sim.push({ structured: ANSWER });
    const r = await exec.run(graph, { input: {} });
    expect(r.status, JSON.stringify(r.error)).toBe("completed");
    expect(r.output).toMatchObject(ANSWER);
    expect(sim.requests.length - asked).toBe(1);
  });

  it("streamed (executor.stream): the answer streamed in pieces is the same answer, asking once", async () => {
    const asked = sim.requests.length;
    sim.push({ structured: ANSWER });
    const result = await streamResult(exec.stream(graph, { input: {} }));
    expect(result).toMatchObject({ status: "completed", output: ANSWER });
    expect(sim.requests.at(-1)?.body).toMatchObject({ stream: true });
    expect(sim.requests.length - asked).toBe(1);
  });

  it("through the official SDK, streaming messages: the thread's values hold it", async () => {
    sim.push({ structured: ANSWER });
    const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
    const thread = await client.threads.create();
    let values: unknown;
    for await (const e of client.runs.stream(thread.thread_id, graph, {
      input: {},
      streamMode: ["values", "messages-tuple"],
    }))
      if (e.event === "values") values = e.data;
    expect(values).toMatchObject(ANSWER);
    expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
  });
});

describe.each([
  ["invoked", false],
  ["streamed", true],
])("an answer the provider stopped short (%s)", (_, streamed) => {
  it("Anthropic, cut at max_tokens: invalid-output saying so, asked once", async () => {
    const asked = sim.requests.length;
    sim.push({ text: '{"priority": "urg', truncated: true });
    const r = await resultOf("classify-anthropic", streamed);
    expect(r.error).toMatchObject({ code: "invalid-output", node: "classify", field: "output" });
    expect(r.error!.message).toBe(
      'node `classify`: the model\'s answer was cut at its token limit before it matched `output.schema` (answer: "{\\"priority\\": \\"urg")',
    );
    expect(r.error!.hint).toMatch(/raise the model's `max_tokens`/);
    expect(sim.requests.length - asked).toBe(1);
  });

  it("Anthropic, declined (stop_reason refusal): invalid-output with its words, asked once", async () => {
    const asked = sim.requests.length;
    sim.push({ refusal: "I can't help with that request." });
    const r = await resultOf("classify-anthropic", streamed);
    expect(r.error).toMatchObject({ code: "invalid-output", node: "classify" });
    expect(r.error!.message).toBe(
      'node `classify`: the model declined to answer (answer: "I can\'t help with that request.")',
    );
    expect(r.error!.hint).toMatch(/content policy/);
    expect(sim.requests.length - asked).toBe(1);
  });

  it("Anthropic, a complete answer at max_tokens: accepted", async () => {
    sim.push({ structured: ANSWER, truncated: true });
    expect(await resultOf("classify-anthropic", streamed)).toMatchObject({
      status: "completed",
      output: ANSWER,
    });
  });
});

it("OpenAI, cut at the length limit when invoked (the client's LengthFinishReasonError): invalid-output saying so, asked once", async () => {
  const asked = sim.requests.length;
  sim.push({ text: '{"priority": "urg', truncated: true });
  const r = await resultOf("classify-openai", false);
  expect(r.error).toMatchObject({ code: "invalid-output", node: "classify" });
  expect(r.error!.message).toBe(
    "node `classify`: the model's answer was cut at its token limit before it matched `output.schema`",
  );
  expect(sim.requests.length - asked).toBe(1);
});
