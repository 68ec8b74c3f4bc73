/**
 * The provider simulator (test/support/provider-sim) against the real clients, directly:
 * ChatOpenAI and ChatAnthropic over HTTP read what it sends as they read the real APIs —
 * text, streams, tool calls (parallel, split across chunks), structured output both ways,
 * refusals, truncation, usage, errors, retries and stalls.
 */
import { ChatAnthropic } from "@langchain/anthropic";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type AIMessageChunk, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { SimTurn } from "./support/provider-sim/script.js";
import { type ProviderSim, startProviderSim } from "./support/provider-sim/server.js";

let sim: ProviderSim | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

type Options = { maxRetries?: number; timeout?: number };
const clients: Record<string, (s: ProviderSim, o?: Options) => BaseChatModel> = {
  openai: (s, o = {}) =>
    new ChatOpenAI({
      model: "gpt-4o-mini",
      apiKey: "sk-test",
      configuration: { baseURL: s.openaiUrl },
      maxRetries: o.maxRetries ?? 0,
      ...(o.timeout ? { timeout: o.timeout } : {}),
    }),
  anthropic: (s, o = {}) =>
    new ChatAnthropic({
      model: "claude-sonnet-4-5",
      apiKey: "sk-ant-test",
      anthropicApiUrl: s.anthropicUrl,
      maxRetries: o.maxRetries ?? 0,
      ...(o.timeout ? { clientOptions: { timeout: o.timeout } } : {}),
    }),
};

const lookup = tool(async ({ id }) => `found ${id}`, {
  name: "lookup",
  description: "Look a record up.",
  schema: z.object({ id: z.string() }),
});

const Triage = z.object({ priority: z.enum(["low", "urgent"]) });

async function start(...turns: (SimTurn | string)[]): Promise<ProviderSim> {
  sim = await startProviderSim(turns);
  return sim;
}

/** A stream's chunks, and them added up as LangChain adds them. */
async function streamed(model: { stream(input: string): Promise<AsyncIterable<AIMessageChunk>> }) {
  const chunks: AIMessageChunk[] = [];
  for await (const c of await model.stream("hi")) chunks.push(c);
  const whole = chunks.reduce((a, c) => a.concat(c));
  return { chunks, whole };
}

const usageOf = (input: number, output: number) =>
  expect.objectContaining({
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
  });

describe.each(Object.keys(clients))("the simulator, for %s's client", (api) => {
  const client = (s: ProviderSim, o?: Options) => clients[api]!(s, o);

  it("answers invoke with text and its usage, and records the request", async () => {
    const s = await start({ text: "Hello there.", usage: { input_tokens: 12, output_tokens: 3 } });
    const m = await client(s).invoke([new HumanMessage("hi")]);
    expect(m.text).toBe("Hello there.");
    expect(m.usage_metadata).toEqual(usageOf(12, 3));
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0]!.api).toBe(api);
    expect(JSON.stringify(s.requests[0]!.body.messages)).toContain("hi");
    expect(s.reportedTotal()).toEqual({ input_tokens: 12, output_tokens: 3 });
  });

  it("streams text in pieces, with the usage counted once over the chunks", async () => {
    const s = await start({
      text: "Hello there, friend.",
      usage: { input_tokens: 30, output_tokens: 7 },
    });
    const { chunks, whole } = await streamed(client(s));
    expect(chunks.filter((c) => c.text).length).toBeGreaterThan(2);
    expect(whole.text).toBe("Hello there, friend.");
    expect(whole.usage_metadata).toEqual(usageOf(30, 7));
    if (api === "openai")
      expect(s.requests[0]!.body.stream_options).toEqual({ include_usage: true });
  });

  it("makes parallel tool calls, their arguments arriving split across chunks", async () => {
    const calls = [
      { name: "lookup", args: { id: "first-record" } },
      { name: "lookup", args: { id: "second-record" } },
    ];
    const s = await start({ tool_calls: calls }, { tool_calls: calls });
    const model = client(s).bindTools!([lookup]);
    const invoked = await model.invoke("look both up");
    expect(invoked.tool_calls?.map((c) => c.args)).toEqual(calls.map((c) => c.args));
    const { chunks, whole } = await streamed(model);
    const argPieces = chunks.flatMap((c) => c.tool_call_chunks ?? []).filter((c) => c.args);
    expect(argPieces.length).toBeGreaterThan(calls.length);
    expect(whole.tool_calls?.map((c) => [c.name, c.args])).toEqual(
      calls.map((c) => [c.name, c.args]),
    );
    expect(new Set(whole.tool_calls?.map((c) => c.id)).size).toBe(2);
    const sent = s.requests[0]!.body.tools as { name?: string; function?: { name: string } }[];
    expect(sent.map((t) => t.function?.name ?? t.name)).toEqual(["lookup"]);
  });

  it("gives structured output by function calling (a forced tool call)", async () => {
    const s = await start({ structured: { priority: "urgent" } });
    const out = await client(s)
      .withStructuredOutput(Triage, { name: "triage", method: "functionCalling" })
      .invoke("triage this");
    expect(out).toEqual({ priority: "urgent" });
    const choice = s.requests[0]!.body.tool_choice as Record<string, unknown>;
    expect(JSON.stringify(choice)).toContain("triage");
  });

  it("gives structured output as JSON matching a schema", async () => {
    const s = await start({ structured: { priority: "low" } });
    const out = await client(s)
      .withStructuredOutput(Triage, { name: "triage", method: "jsonSchema" })
      .invoke("triage this");
    expect(out).toEqual({ priority: "low" });
    const body = s.requests[0]!.body;
    expect(body.response_format ?? body.output_config).toBeDefined();
  });

  it("says why an answer stopped: cut at the token limit, or refused", async () => {
    const s = await start(
      { text: "The answer is", truncated: true },
      { refusal: "I can't help with that." },
    );
    const cut = await client(s).invoke("hi");
    expect(cut.response_metadata).toMatchObject(
      api === "openai" ? { finish_reason: "length" } : { stop_reason: "max_tokens" },
    );
    if (api === "openai") {
      // ChatOpenAI drops Chat Completions' `refusal`: a refused structured answer is empty text.
      const asked = client(s).withStructuredOutput(Triage, { method: "jsonSchema" }).invoke("hi");
      await expect(asked).rejects.toThrow(/Failed to parse\. Text: ""/);
    } else {
      const refused = await client(s).invoke("hi");
      expect(refused.response_metadata).toMatchObject({ stop_reason: "refusal" });
      expect(refused.text).toBe("I can't help with that.");
    }
  });

  it("refuses a wrong key (401) at once, with the provider's error", async () => {
    const s = await start({ status: 401, text: "Incorrect API key provided" });
    const e = (await client(s, { maxRetries: 3 })
      .invoke("hi")
      .catch((x) => x)) as Error & { status?: number };
    expect(e.status).toBe(401);
    expect(e.message).toContain("Incorrect API key provided");
    expect(s.requests).toHaveLength(1);
  });

  it("rate-limits (429 with retry-after) and fails (500), and the client retries", async () => {
    const s = await start(
      { status: 429, retryAfter: 0, text: "Rate limit reached" },
      { status: 500, text: "The server had an error" },
      "Finally.",
    );
    const m = await client(s, { maxRetries: 2 }).invoke("hi");
    expect(m.text).toBe("Finally.");
    expect(s.requests).toHaveLength(3);
  });

  it("an overloaded provider (503, Anthropic's 529) is an error with its status", async () => {
    const status = api === "openai" ? 503 : 529;
    const s = await start({ status, text: "Overloaded" });
    const e = (await client(s)
      .invoke("hi")
      .catch((x) => x)) as Error & { status?: number };
    expect(e.status).toBe(status);
    expect(e.message).toContain("Overloaded");
  });

  it("a 429 without retries left is the provider's rate-limit error", async () => {
    const s = await start({ status: 429, retryAfter: 0, text: "Rate limit reached" });
    const e = (await client(s)
      .invoke("hi")
      .catch((x) => x)) as Error & { status?: number; error?: unknown };
    expect(e.status).toBe(429);
    expect(JSON.stringify(e.error ?? e.message)).toContain(
      api === "openai" ? "rate_limit_exceeded" : "rate_limit_error",
    );
  });

  it("a stream that fails midway is the provider's error, after the text so far", async () => {
    const s = await start({ text: "never finished", failMidStream: "Overloaded midway" });
    const texts: string[] = [];
    const reading = (async () => {
      for await (const c of await client(s).stream("hi")) texts.push(c.text);
    })();
    await expect(reading).rejects.toThrow(/Overloaded midway/);
    expect("never finished".startsWith(texts.join(""))).toBe(true);
  });

  it("a stalled connection ends at the client's timeout; an answer stalled midway, at its signal", async () => {
    const s = await start(
      { stall: true },
      { text: "never finished", stall: "mid-stream" },
      { text: "never finished", stall: "mid-stream" },
    );
    const model = client(s, { timeout: 300 });
    await expect(model.invoke("hi")).rejects.toThrow(/timed out|timeout/i);
    // The clients' timeouts end at the response's headers: a body that stops needs a signal.
    const texts: string[] = [];
    const reading = (async () => {
      for await (const c of await model.stream("hi", { signal: AbortSignal.timeout(300) }))
        texts.push(c.text);
    })();
    await expect(reading).rejects.toThrow(/abort|timeout/i);
    const got = texts.join("");
    expect(got).not.toBe("");
    expect("never finished".startsWith(got) && got !== "never finished").toBe(true);
    // Not streamed: half the body, then nothing.
    const signal = AbortSignal.timeout(300);
    await expect(model.invoke("hi", { signal })).rejects.toThrow(/abort|timeout/i);
    expect(s.requests).toHaveLength(3);
  });
});
