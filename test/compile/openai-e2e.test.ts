/**
 * The real `@langchain/openai` client, over real HTTP, against an OpenAI-compatible stub on
 * 127.0.0.1: a spec with an `llm` and an `agent` node runs end to end — chat, structured output,
 * tool calls, token streaming — and the requests carry what the spec says.
 */
import { afterEach, describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub.js";
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

let stub: OpenAIStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const env = () => ({ STUB_URL: stub!.url, STUB_KEY: "sk-test" });

describe("openai over HTTP", () => {
  it("runs an llm and an agent end to end", async () => {
    stub = await startOpenAIStub([
      '{"priority":"urgent"}',
      { tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1001" } }] },
      "Ada cannot log in; the ticket is open.",
    ]);
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

    const [first, second, third] = stub.requests;
    expect(first).toMatchObject({ model: "gpt-4o-mini", temperature: 0 });
    expect(JSON.stringify(first)).toContain("Ticket: T-1001");
    // The agent offered the tool, and sent its result back on the next call.
    expect(JSON.stringify(second?.tools)).toContain("lookup_ticket");
    expect(JSON.stringify(third?.messages)).toContain("Cannot log in");
  });

  it("streams tokens as they arrive (streamMode messages)", async () => {
    stub = await startOpenAIStub(['{"priority":"low"}', "It is a low priority ticket."]);
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

  it("a missing environment variable is a compile error naming the model and the variable", async () => {
    const e = await rejection(compile(specDoc(SPEC), { env: {} }));
    expect(e.name).toBe("CompileError");
    expect(e.message).toMatch(/model `default`: `\.base_url` could not be computed: .*STUB_URL/);
  });

  it("a provider whose package is missing names the package and the install command", async () => {
    const anthropic = SPEC.replace('"openai:gpt-4o-mini"', '"anthropic:claude-sonnet-4-5"');
    const e = await rejection(
      compile(specDoc(anthropic), { env: { STUB_URL: "http://127.0.0.1:9/v1", STUB_KEY: "k" } }),
    );
    expect(e.message).toMatch(
      /needs the package `@langchain\/anthropic`, which is not installed \(run `npm install @langchain\/anthropic`\)/,
    );
  });
});
