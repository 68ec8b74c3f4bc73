/**
 * The real `@langchain/openai` client, over real HTTP, against an OpenAI-compatible stub on
 * 127.0.0.1: specs with `llm` and `agent` nodes run end to end — chat, structured output (JSON
 * schema and function calling), tools, approvals, token streaming — and the requests carry what
 * the spec says.
 */
import type { AIMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { type OpenAIStub, type StubTurn, startOpenAIStub } from "../support/openai-stub.js";
import { rejection, specDoc } from "./helpers.js";

const SPEC = `version: 1
name: t
state:
  messages: { type: messages }
  ticket: { type: string }
  priority: { type: string }
models:
  default:
    model: "openai:gpt-4o-mini"
    base_url: "\${{ env.STUB_URL }}"
    api_key: "\${{ env.STUB_KEY }}"
    temperature: 0
    max_tokens: 100
tools:
  lookup_ticket: { module: ../../../../tools/tickets.ts, export: lookupTicket }
nodes:
  classify:
    kind: llm
    prompt: "Ticket: \${{ state.ticket }}"
    output:
      name: triage
      schema:
        type: object
        properties: { priority: { type: string, enum: [low, urgent] } }
        required: [priority]
    write: { priority: "\${{ output.priority }}" }
  investigate:
    kind: agent
    system: Look the ticket up, then answer.
    tools: [lookup_ticket]
edges:
  - { from: START, to: classify }
  - { from: classify, to: investigate }
  - { from: investigate, to: END }
`;

/** A one-node graph on the stub: `node` is the node's YAML (indented four spaces). */
const oneNode = (model: string, node: string, state = "") => `version: 1
name: t
state:
  messages: { type: messages }
${state}models:
  default:
    model: "${model}"
    base_url: "\${{ env.STUB_URL }}"
    api_key: "\${{ env.STUB_KEY }}"
tools:
  lookup_ticket: { module: ../../../../tools/tickets.ts, export: lookupTicket }
nodes:
  n:
${node}edges:
  - { from: START, to: n }
  - { from: n, to: END }
`;

let stub: OpenAIStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const env = () => ({ STUB_URL: stub!.url, STUB_KEY: "sk-test" });
const start = async (...turns: (StubTurn | string)[]) => {
  stub = await startOpenAIStub(turns);
  return stub;
};
/** The role and text (or tool calls) of each message a request sent. */
const roles = (request: Record<string, unknown> | undefined) =>
  ((request?.messages ?? []) as { role: string; content: unknown; tool_calls?: unknown[] }[]).map(
    (m) => `${m.role}: ${m.tool_calls ? `[${m.tool_calls.length} call]` : m.content}`,
  );

describe("openai over HTTP", () => {
  it("runs an llm and an agent end to end", async () => {
    await start(
      '{"priority":"urgent"}',
      { tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1001" } }] },
      "Ada cannot log in; the ticket is open.",
    );
    const g = await compile(specDoc(SPEC), { env: env() });
    const out = await g.invoke({ ticket: "T-1001" });
    expect(out.priority).toBe("urgent");
    const last = out.messages.at(-1);
    expect(last.text).toBe("Ada cannot log in; the ticket is open.");
    expect(last.usage_metadata).toMatchObject({
      input_tokens: 10,
      output_tokens: 5,
      total_tokens: 15,
    });
    const tool = out.messages.find((m: { getType(): string }) => m.getType() === "tool");
    expect(tool.text).toContain('"customer":"ada"');

    const [first, second, third] = stub!.requests;
    expect(first).toMatchObject({
      model: "gpt-4o-mini",
      temperature: 0,
      max_tokens: 100,
      response_format: { type: "json_schema", json_schema: { name: "triage" } },
    });
    expect(roles(first)).toEqual(["user: Ticket: T-1001"]);
    // The agent offered the tool, and sent its result back on the next call.
    expect(roles(second)).toEqual(["system: Look the ticket up, then answer."]);
    expect(JSON.stringify(second?.tools)).toContain("lookup_ticket");
    expect(roles(third)).toEqual([
      "system: Look the ticket up, then answer.",
      "assistant: [1 call]",
      'tool: {"customer":"ada","subject":"Cannot log in","status":"open"}',
    ]);
  });

  it("an llm node binds its tools; the answer's tool calls are in messages", async () => {
    await start({ tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1" }, id: "x1" }] });
    const spec = oneNode(
      "openai:gpt-4o-mini",
      "    kind: llm\n    prompt: Look up T-1.\n    tools: [lookup_ticket]\n",
    );
    const out = await (await compile(specDoc(spec), { env: env() })).invoke({});
    const tools = stub!.requests[0]?.tools as { function: { name: string; parameters: unknown } }[];
    expect(tools.map((t) => t.function.name)).toEqual(["lookup_ticket"]);
    expect(JSON.stringify(tools[0]!.function.parameters)).toContain("ticket_id");
    const answer = out.messages.at(-1) as AIMessage;
    expect(answer.tool_calls).toEqual([
      { name: "lookup_ticket", args: { ticket_id: "T-1" }, id: "x1", type: "tool_call" },
    ]);
  });

  it("structured output by function calling: a wrong answer is answered with a tool message, then retried", async () => {
    // gpt-4-turbo has no JSON schema mode: LangChain asks for a forced tool call instead.
    await start(
      { tool_calls: [{ name: "triage", args: { priority: "soon" }, id: "t1" }] },
      { tool_calls: [{ name: "triage", args: { priority: "low" }, id: "t2" }] },
    );
    const spec = oneNode(
      "openai:gpt-4-turbo",
      `    kind: llm
    prompt: Classify.
    output:
      name: triage
      schema: { type: object, properties: { priority: { type: string, enum: [low, urgent] } }, required: [priority] }
`,
    );
    const out = await (await compile(specDoc(spec), { env: env() })).invoke({});
    const [first, second] = stub!.requests;
    expect(first?.tool_choice).toEqual({ type: "function", function: { name: "triage" } });
    expect(roles(second)).toEqual([
      "user: Classify.",
      "assistant: [1 call]",
      'tool: Your answer does not match the required schema: `output.priority` must be one of "low", "urgent". Answer again, matching the schema exactly.',
    ]);
    // Kept as JSON text: no unanswered tool call is left in the history.
    const answer = out.messages.at(-1) as AIMessage;
    expect(answer.text).toBe('{"priority":"low"}');
    expect(answer.tool_calls ?? []).toEqual([]);
    expect(answer.usage_metadata).toMatchObject({ total_tokens: 15 });
  });

  it("an agent's structured answer is a call of the output tool, whatever the provider offers", async () => {
    await start({ tool_calls: [{ name: "verdict", args: { status: "open" } }] });
    const spec = oneNode(
      "openai:gpt-4o-mini",
      `    kind: agent
    tools: [lookup_ticket]
    prompt: Decide.
    output:
      name: verdict
      schema: { type: object, properties: { status: { type: string } }, required: [status] }
    write: verdict
`,
      "  verdict: { type: object }\n",
    );
    const out = await (await compile(specDoc(spec), { env: env() })).invoke({});
    expect(out.verdict).toEqual({ status: "open" });
    const request = stub!.requests[0]!;
    expect(request.response_format).toBeUndefined();
    const offered = (request.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(offered.sort()).toEqual(["lookup_ticket", "verdict"]);
  });

  it("an agent pauses for approval and resumes over HTTP", async () => {
    await start(
      { tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1002" } }] },
      "Lin's invoice is wrong.",
    );
    const spec = oneNode(
      "openai:gpt-4o-mini",
      "    kind: agent\n    prompt: Check T-1002.\n    tools: [lookup_ticket]\n    approve: [lookup_ticket]\n",
    );
    const g = await compile(specDoc(spec), { env: env(), checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "hitl" } };
    const paused = await g.invoke({}, config);
    expect(paused.__interrupt__?.[0]?.value.actionRequests[0]).toMatchObject({
      name: "lookup_ticket",
      args: { ticket_id: "T-1002" },
    });
    expect(stub!.requests).toHaveLength(1);
    const out = await g.invoke(
      new Command({ resume: { decisions: [{ type: "approve" }] } }),
      config,
    );
    expect(out.messages.at(-1).text).toBe("Lin's invoice is wrong.");
    expect(stub!.requests).toHaveLength(2);
  });

  it("streams an llm node's tokens as they arrive (streamMode messages)", async () => {
    await start("Hello from the stub model.");
    const spec = oneNode("openai:gpt-4o-mini", "    kind: llm\n    prompt: Hi.\n");
    const g = await compile(specDoc(spec), { env: env() });
    const tokens: string[] = [];
    for await (const [chunk, meta] of await g.stream({}, { streamMode: "messages" })) {
      expect(meta.langgraph_node).toBe("n");
      if (chunk.text) tokens.push(chunk.text);
    }
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens.join("")).toBe("Hello from the stub model.");
    expect(stub!.requests[0]).toMatchObject({ stream: true });
  });

  it("streams an agent's tokens from inside its loop", async () => {
    await start('{"priority":"low"}', "It is a low priority ticket.");
    const g = await compile(specDoc(SPEC), { env: env() });
    const tokens: string[] = [];
    // The agent runs as a subgraph of its node: its tokens stream with `subgraphs: true`.
    const stream = await g.stream({ ticket: "T-2" }, { streamMode: "messages", subgraphs: true });
    for await (const [ns, [chunk]] of stream) {
      if (String(ns[0]).startsWith("investigate:") && chunk.text) tokens.push(chunk.text);
    }
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens.join("")).toBe("It is a low priority ticket.");
  });

  it("a provider error fails the node with the provider's message", async () => {
    await start({ status: 400, text: "bad request: model is not available" });
    const spec = oneNode("openai:gpt-4o-mini", "    kind: llm\n    prompt: Hi.\n");
    const e = await rejection((await compile(specDoc(spec), { env: env() })).invoke({}));
    expect(e.message).toContain("bad request: model is not available");
  });

  it("a missing environment variable is a compile error naming the model and the variable", async () => {
    const e = await rejection(compile(specDoc(SPEC), { env: {} }));
    expect(e.name).toBe("CompileError");
    expect(e.message).toMatch(/model `default`: `base_url` could not be computed: .*STUB_URL/);
  });

  it("a provider whose package is missing names the package and the install command", async () => {
    // Mistral's package is not a dependency here (Anthropic's now is, for the provider simulator).
    const mistral = SPEC.replace('"openai:gpt-4o-mini"', '"mistralai:mistral-small-latest"');
    const e = await rejection(
      compile(specDoc(mistral), { env: { STUB_URL: "http://127.0.0.1:9/v1", STUB_KEY: "k" } }),
    );
    expect(e.message).toMatch(
      /needs the package `@langchain\/mistralai`, which is not installed \(run `npm install @langchain\/mistralai`\)/,
    );
  });
});
