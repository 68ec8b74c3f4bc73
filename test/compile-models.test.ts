/**
 * Chat models from `models:` declarations: the `scripted` provider (queues, tool calls, structured
 * output, usage, streaming, running out), `env` templates in options, and the real
 * `@langchain/openai` client over HTTP against an OpenAI-compatible stub.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type AIMessage, type AIMessageChunk, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ModelConfigError,
  resolveModel,
  type ScriptedTurn,
  ScriptQueues,
  type Scripts,
} from "../src/compile/models/index.js";
import type { Model } from "../src/spec/spec-types.generated.js";
import { type OpenAIStub, type StubTurn, startOpenAIStub } from "./support/openai-stub.js";

async function failure(p: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await p;
  } catch (e) {
    return e as Error & Record<string, unknown>;
  }
  throw new Error("expected a rejection");
}

const scripted = (turns: (ScriptedTurn | string)[], name = "triage") =>
  resolveModel("test", { model: `scripted:${name}` }, { scripts: { [name]: turns } });

const ask = async (model: BaseChatModel, text = "hi") =>
  (await model.invoke([new HumanMessage(text)])) as AIMessage;

const lookupTicket = tool(async ({ ticket_id }) => `ticket ${ticket_id}: open`, {
  name: "lookup_ticket",
  description: "Look a ticket up.",
  schema: z.object({ ticket_id: z.string() }),
});

describe("scripted models", () => {
  it("answer turns in order; a bare string is a text turn", async () => {
    const model = await scripted(["one", { text: "two" }]);
    expect((await ask(model)).text).toBe("one");
    expect((await ask(model)).text).toBe("two");
  });

  it("share one queue per script name across models of one compile, not across compiles", async () => {
    const scripts: Scripts = { triage: ["a", "b", "c"] };
    const queues = new ScriptQueues(scripts);
    const first = await resolveModel("first", { model: "scripted:triage" }, { scripts: queues });
    const second = await resolveModel("second", { model: "scripted:triage" }, { scripts: queues });
    expect((await ask(first)).text).toBe("a");
    expect((await ask(second)).text).toBe("b");
    expect((await ask(first)).text).toBe("c");

    // Another compile given the same Scripts starts from the first turn.
    const again = await resolveModel("first", { model: "scripted:triage" }, { scripts: scripts });
    expect((await ask(again)).text).toBe("a");
    expect(scripts.triage).toEqual(["a", "b", "c"]);
  });

  it("answer tool calls, with ids call_1, call_2, … when the script gives none", async () => {
    const model = await scripted([
      {
        tool_calls: [
          { name: "lookup_ticket", args: { ticket_id: "T-1" } },
          { name: "lookup_ticket", args: { ticket_id: "T-2" }, id: "mine" },
        ],
      },
      { tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-3" } }] },
      "done",
    ]);
    const bound = model.bindTools!([lookupTicket]);
    const first = (await bound.invoke([new HumanMessage("look")])) as AIMessage;
    expect(first.tool_calls).toEqual([
      { name: "lookup_ticket", args: { ticket_id: "T-1" }, id: "call_1", type: "tool_call" },
      { name: "lookup_ticket", args: { ticket_id: "T-2" }, id: "mine", type: "tool_call" },
    ]);
    // The bound model and the model itself answer from one queue.
    expect((await ask(model)).tool_calls?.map((c) => c.id)).toEqual(["call_2"]);
    expect(((await bound.invoke("and?")) as AIMessage).text).toBe("done");
  });

  it("answer withStructuredOutput with the turn's `structured` value, or its JSON text", async () => {
    const schema = { type: "object", properties: { priority: { type: "string" } } };
    const model = await scripted([
      { structured: { priority: "urgent" } },
      '{"priority":"low"}',
      { structured: { priority: "high" } },
    ]);
    const structured = model.withStructuredOutput(schema);
    expect(await structured.invoke("classify")).toEqual({ priority: "urgent" });
    expect(await structured.invoke("classify")).toEqual({ priority: "low" });
    const raw = model.withStructuredOutput(schema, { includeRaw: true });
    const answer = (await raw.invoke("classify")) as { raw: AIMessage; parsed: unknown };
    expect(answer.parsed).toEqual({ priority: "high" });
    // The AI message of a structured answer is its JSON text.
    expect(answer.raw.text).toBe('{"priority":"high"}');
  });

  it("say what is wrong when a structured-output call meets a turn that cannot answer it", async () => {
    const model = await scripted([
      { tool_calls: [{ name: "lookup_ticket", args: {} }] },
      "not json",
      "not json either",
    ]);
    const e = await failure(model.withStructuredOutput({ type: "object" }).invoke("x"));
    expect(e.message).toBe(
      "scripted model `triage` (call 1) was asked for a structured answer, but turn 1 of its script has neither `structured` nor JSON `text`",
    );
    const text = await failure(model.withStructuredOutput({ type: "object" }).invoke("x"));
    expect(text.message).toMatch(
      /\(call 2\) answered a structured-output call with text that is not JSON: "not json"/,
    );
    // With the raw answer asked for, text that is not JSON parses to null, as a provider's would.
    const raw = model.withStructuredOutput({ type: "object" }, { includeRaw: true });
    expect(await raw.invoke("x")).toMatchObject({ parsed: null });
  });

  it("report usage: the turn's, or about four characters a token", async () => {
    const model = await scripted([
      { text: "hi", usage: { input_tokens: 7, output_tokens: 2 } },
      "abcdefghi",
      { tool_calls: [{ name: "t", args: {} }] },
    ]);
    expect((await ask(model)).usage_metadata).toEqual({
      input_tokens: 7,
      output_tokens: 2,
      total_tokens: 9,
    });
    // 12 characters in, 9 out.
    expect((await ask(model, "hello world!")).usage_metadata).toEqual({
      input_tokens: 3,
      output_tokens: 3,
      total_tokens: 6,
    });
    expect((await ask(model, "")).usage_metadata).toMatchObject({ input_tokens: 1 });
  });

  it("give every answer its own id, across compiles too", async () => {
    const scripts: Scripts = { triage: ["a", "b"] };
    const one = await resolveModel("m", { model: "scripted:triage" }, { scripts });
    const two = await resolveModel("m", { model: "scripted:triage" }, { scripts });
    const ids = [await ask(one), await ask(one), await ask(two)].map((m) => m.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toMatch(/^scripted-triage-/);
  });

  it("fail a call on an `error` turn, then go on with the next turn", async () => {
    const model = await scripted([{ error: "rate limited" }, "recovered"]);
    expect((await failure(ask(model))).message).toBe("rate limited");
    expect((await ask(model)).text).toBe("recovered");
  });

  it("fail when the script runs out, saying which call it was", async () => {
    const model = await scripted(["only"]);
    await ask(model);
    await ask(model).catch(() => undefined);
    const e = await failure(ask(model));
    expect(e.message).toBe(
      "scripted model `triage` has no answer left: its script has 1 turn and this is call 3",
    );
    expect(e.hint).toBe("add a turn to the script `triage`: one turn per model call");
    expect(e.stack).toBeDefined();
    expect(e.message).not.toContain("\n");
  });

  it("stream the text in pieces, to `.stream()` and to token callbacks", async () => {
    const model = await scripted([
      "The ticket is open.",
      {
        text: "Looking.",
        tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1" } }],
        usage: { input_tokens: 4, output_tokens: 6 },
      },
    ]);
    const tokens: string[] = [];
    // A handler that prefers streaming, as LangGraph's `messages` stream mode does.
    const listener = {
      lc_prefer_streaming: true,
      handleLLMNewToken: (token: string) => void tokens.push(token),
    };
    const answer = (await model.invoke("hi", { callbacks: [listener] })) as AIMessage;
    expect(tokens).toEqual(["The ", "tick", "et i", "s op", "en."]);
    expect(answer.text).toBe("The ticket is open.");

    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model.stream("hi")) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(2);
    const whole = chunks.reduce((a, b) => a.concat(b));
    expect(whole.text).toBe("Looking.");
    expect(whole.tool_calls).toEqual([
      { name: "lookup_ticket", args: { ticket_id: "T-1" }, id: "call_1", type: "tool_call" },
    ]);
    expect(whole.usage_metadata).toMatchObject({
      input_tokens: 4,
      output_tokens: 6,
      total_tokens: 10,
    });
  });

  it("stream tokens to LangGraph's `messages` stream mode", async () => {
    const model = await scripted(["Hello there."]);
    const graph = new StateGraph(MessagesAnnotation)
      .addNode("chat", async (state) => ({ messages: [await model.invoke(state.messages)] }))
      .addEdge(START, "chat")
      .addEdge("chat", END)
      .compile();
    const pieces: string[] = [];
    const stream = await graph.stream(
      { messages: [new HumanMessage("hi")] },
      {
        streamMode: "messages",
      },
    );
    for await (const [chunk, meta] of stream) {
      expect(meta.langgraph_node).toBe("chat");
      pieces.push((chunk as AIMessageChunk).text);
    }
    expect(pieces).toEqual(["Hell", "o th", "ere."]);
  });

  it("stream events of the model's tokens", async () => {
    const model = await scripted(["Hello there."]);
    const pieces: string[] = [];
    for await (const event of model.streamEvents("hi", { version: "v2" })) {
      if (event.event === "on_chat_model_stream") pieces.push(event.data.chunk.text);
    }
    expect(pieces.join("")).toBe("Hello there.");
    expect(pieces.length).toBeGreaterThan(1);
  });

  it("need a script: the provider answers only from the test's or fixture's", async () => {
    const none = await failure(resolveModel("test", { model: "scripted:triage" }, {}));
    expect(none).toBeInstanceOf(ModelConfigError);
    expect(none.message).toBe(
      'model `test` (`scripted:triage`) has no script: the scripted provider answers only from a script supplied by the test or fixture that runs the graph (pass `scripts: { "triage": [...] }` to compile() (CompileOptions.scripts), or a `scripts:` entry in the test fixture)',
    );
    const other = await failure(
      resolveModel("test", { model: "scripted:triage" }, { scripts: { chat: [] } }),
    );
    expect(other.message).toMatch(
      /has no script: .*\(the scripts given are `chat`: add `triage`\)$/,
    );
    expect(other).toMatchObject({ model: "test", field: "model" });
  });
});

describe("model declarations", () => {
  it("a model that is not `provider:name` is refused", async () => {
    const e = await failure(resolveModel("default", { model: "gpt-4o-mini" }, {}));
    expect(e.message).toBe(
      "model `default`: `gpt-4o-mini` is not of the form `provider:name` (write it as, e.g., `openai:gpt-4o-mini`)",
    );
  });

  it("an unknown provider is refused, with the providers there are", async () => {
    const e = await failure(resolveModel("default", { model: "opneai:gpt-4o-mini" }, {}));
    expect(e).toBeInstanceOf(ModelConfigError);
    expect(e.message).toMatch(
      /^model `default` \(`opneai:gpt-4o-mini`\) names the provider `opneai`, which LangChain does not know \(did you mean `openai`\? use one of: scripted, openai, anthropic, .*ollama/,
    );
  });

  it("a provider whose package is not installed names the package and the command", async () => {
    const e = await failure(
      resolveModel(
        "default",
        { model: "mistralai:mistral-large-latest", api_key: "sk-secret" },
        {},
      ),
    );
    expect(e).toBeInstanceOf(ModelConfigError);
    expect(e.message).toBe(
      "model `default` (`mistralai:mistral-large-latest`) needs the package `@langchain/mistralai`, which is not installed (run `npm install @langchain/mistralai`)",
    );
    expect(e.message).not.toContain("sk-secret");
  });

  it("a missing environment variable names the model, the option and the variable", async () => {
    const decl: Model = { model: "openai:gpt-4o-mini", api_key: "${{ env.KEY }}" };
    const e = await failure(resolveModel("local", decl, { env: { OTHER: "x" } }));
    expect(e).toBeInstanceOf(ModelConfigError);
    expect(e).toMatchObject({ model: "local", field: "api_key" });
    expect(e.message).toBe(
      "model `local`: `api_key` could not be computed: the environment variable `KEY` is not set (set `KEY`, or pass it in compile()'s `env` option)",
    );
    const nested: Model = {
      model: "openai:gpt-4o-mini",
      configuration: { defaultHeaders: { "x-team": "${{ env.TEAM }}" } },
    };
    const inner = await failure(resolveModel("local", nested, { env: {} }));
    expect(inner.field).toBe("configuration.defaultHeaders.x-team");
  });

  it("a template that does not type-check says why", async () => {
    const decl: Model = { model: "openai:gpt-4o-mini", api_key: "${{ state.key }}" };
    const e = await failure(resolveModel("local", decl, { env: {} }));
    expect(e.message).toBe(
      "model `local`: `api_key` could not be computed: `state` is not available in `models`: a model is set up from the environment and the run's context, before any node writes the state (in scope here: `env` and `context`)",
    );
  });
});

describe("openai over HTTP, with the real client", () => {
  let stub: OpenAIStub | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });
  const openai = async (turns: (StubTurn | string)[], decl: Partial<Model> = {}) => {
    stub = await startOpenAIStub(turns);
    return resolveModel(
      "default",
      { model: "openai:gpt-4o-mini", base_url: stub.url, api_key: "test", ...decl },
      { env: {} },
    );
  };

  it("answers text with usage, sending the declared options", async () => {
    const model = await openai(["Hello from the stub."], { temperature: 0, max_tokens: 100 });
    const answer = await ask(model, "Say hello.");
    expect(answer.text).toBe("Hello from the stub.");
    expect(answer.usage_metadata).toMatchObject({
      input_tokens: 10,
      output_tokens: 5,
      total_tokens: 15,
    });
    expect(stub!.requests[0]).toMatchObject({
      model: "gpt-4o-mini",
      temperature: 0,
      max_tokens: 100,
      messages: [{ role: "user", content: "Say hello." }],
    });
    expect(stub!.headers[0]!.authorization).toBe("Bearer test");
  });

  it("keeps `price` to graphspec: it is not sent to the provider", async () => {
    const model = await openai(["ok"], { price: { input: 0.15, output: 0.6 } });
    await ask(model, "Say ok.");
    expect(stub!.requests[0]).not.toHaveProperty("price");
    // The fields the provider's model was built with.
    expect((model as unknown as { fields: object }).fields).not.toHaveProperty("price");
  });

  it("takes base_url, api_key and nested options from the environment", async () => {
    stub = await startOpenAIStub(["ok"]);
    const model = await resolveModel(
      "local",
      {
        model: "openai:llama3.2",
        base_url: "${{ env.OLLAMA_URL }}",
        api_key: "${{ env.KEY }}",
        configuration: { defaultHeaders: { "x-team": "team-${{ env.TEAM }}" } },
      },
      { env: { OLLAMA_URL: stub.url, KEY: "sk-from-env", TEAM: "support" } },
    );
    expect((await ask(model)).text).toBe("ok");
    expect(stub.requests[0]).toMatchObject({ model: "llama3.2" });
    expect(stub.headers[0]).toMatchObject({
      authorization: "Bearer sk-from-env",
      "x-team": "team-support",
    });
  });

  it("retries as `max_retries` says, and sets `timeout_ms`", async () => {
    const model = await openai([{ status: 500, text: "try again" }, "second time"], {
      max_retries: 1,
      timeout_ms: 5000,
    });
    expect((model as unknown as { timeout: number }).timeout).toBe(5000);
    expect((await ask(model)).text).toBe("second time");
    expect(stub!.requests).toHaveLength(2);
  });

  it("fails at once with `max_retries: 0`", async () => {
    const model = await openai([{ status: 500, text: "broken" }, "unused"], { max_retries: 0 });
    expect((await failure(ask(model))).message).toContain("broken");
    expect(stub!.requests).toHaveLength(1);
  });

  it("binds tools and parses the tool calls", async () => {
    const model = await openai([
      { tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1" }, id: "call_abc" }] },
    ]);
    const answer = (await model.bindTools!([lookupTicket]).invoke("Look T-1 up.")) as AIMessage;
    expect(answer.tool_calls).toEqual([
      { name: "lookup_ticket", args: { ticket_id: "T-1" }, id: "call_abc", type: "tool_call" },
    ]);
    const tools = stub!.requests[0]!.tools as { function: { name: string } }[];
    expect(tools.map((t) => t.function.name)).toEqual(["lookup_ticket"]);
  });

  it("streams text in chunks that add up to the answer, usage last", async () => {
    const model = await openai(["The ticket is open."]);
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model.stream("Status?")) chunks.push(chunk);
    expect(chunks.filter((c) => c.text).map((c) => c.text)).toEqual([
      "The ",
      "tick",
      "et i",
      "s op",
      "en.",
    ]);
    const whole = chunks.reduce((a, b) => a.concat(b));
    expect(whole.text).toBe("The ticket is open.");
    expect(whole.usage_metadata).toMatchObject({ total_tokens: 15 });
    expect(stub!.requests[0]).toMatchObject({ stream: true });
  });

  it("answers withStructuredOutput by JSON schema (gpt-4o-mini) and by function calling", async () => {
    const schema = z.object({ priority: z.enum(["low", "urgent"]) });
    const model = await openai([{ structured: { priority: "urgent" } }]);
    expect(await model.withStructuredOutput(schema, { name: "triage" }).invoke("T-1")).toEqual({
      priority: "urgent",
    });
    expect(stub!.requests[0]).toMatchObject({
      response_format: { type: "json_schema", json_schema: { name: "triage" } },
    });
    await stub!.close();

    const calling = await openai([{ structured: { priority: "low" } }]);
    const viaTool = calling.withStructuredOutput(schema, {
      name: "triage",
      method: "functionCalling",
    });
    expect(await viaTool.invoke("T-2")).toEqual({ priority: "low" });
    expect(stub!.requests[0]).toMatchObject({
      tool_choice: { type: "function", function: { name: "triage" } },
    });
  });

  it("the stub refuses unknown paths and says when it has no answer left", async () => {
    const model = await openai([], { max_retries: 0 });
    const e = await failure(ask(model));
    expect(e.message).toContain("the stub has no answer left");
    const res = await fetch(`${stub!.url}/models`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { type: "invalid_request_error" } });
  });
});

describe("the providers validate knows", () => {
  it("are LangChain's initChatModel providers and `scripted`", async () => {
    const { MODEL_PROVIDER_CONFIG } = await import("langchain/chat_models/universal");
    const { MODEL_PROVIDERS } = await import("../src/check/rules/unknown-provider.js");
    expect([...MODEL_PROVIDERS].sort()).toEqual(
      ["scripted", ...Object.keys(MODEL_PROVIDER_CONFIG)].sort(),
    );
  });

  it("a template in `model` is refused at compile too, never sent as text", async () => {
    const e = await failure(
      resolveModel("default", { model: "openai:${{ env.MODEL }}" }, { env: { MODEL: "gpt-4o" } }),
    );
    expect(e).toBeInstanceOf(ModelConfigError);
    expect(e.message).toContain("`model` is a template");
  });
});
