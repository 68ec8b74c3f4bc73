/**
 * OpenAI's Chat Completions API (`POST /v1/chat/completions`) as `openai`'s client and
 * `@langchain/openai`'s ChatOpenAI read it: a `chat.completion`, or `chat.completion.chunk`s with
 * text in pieces, each tool call's arguments split across chunks (parallel calls one after the
 * other, by `index`), refusals in `refusal`, and the usage in a last chunk with no choices when
 * `stream_options.include_usage` asks for it.
 */
import { type SimApi, sse } from "./api.js";
import { answerOf, DEFAULT_USAGE, pieces } from "./script.js";

type Body = Record<string, unknown>;

/** The function a request forces with `tool_choice`, if any. */
const forcedFunction = (body: Body) =>
  (body.tool_choice as { function?: { name?: string } } | undefined)?.function?.name;

const ERROR_TYPES: Record<number, string> = { 401: "invalid_api_key", 429: "rate_limit_exceeded" };

export const openaiApi: SimApi = {
  name: "openai",
  path: "/v1/chat/completions",
  headers: (call) => ({ "x-request-id": `req_${call}` }),
  error: (status, message, type) => {
    const t = type ?? ERROR_TYPES[status] ?? "server_error";
    return { error: { message, type: t, param: null, code: t } };
  },
  // The openai client throws an APIError for a chunk with an `error`.
  streamError: (message, type) => sse(openaiApi.error(500, message, type ?? "server_error")),
  answer(turn, body, call) {
    const id = `chatcmpl-${call}`;
    const model = String(body.model);
    const { text, toolCalls } = answerOf(turn, {
      forcedTool: forcedFunction(body),
      jsonSchema: Boolean(body.response_format),
    });
    const calls = toolCalls.map((c, i) => ({
      id: c.id ?? `call_${call}_${i}`,
      type: "function" as const,
      function: { name: c.name, arguments: JSON.stringify(c.args) },
    }));
    const usage = turn.usage ?? DEFAULT_USAGE;
    const wireUsage = {
      prompt_tokens: usage.input_tokens,
      completion_tokens: usage.output_tokens,
      total_tokens: usage.input_tokens + usage.output_tokens,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
    };
    const finish = turn.truncated ? "length" : calls.length ? "tool_calls" : "stop";
    const head = { id, created: 0, model, system_fingerprint: "fp_sim" };
    if (!body.stream) {
      const message = {
        role: "assistant",
        content: turn.refusal !== undefined ? null : text || (calls.length ? null : ""),
        refusal: turn.refusal ?? null,
        ...(calls.length ? { tool_calls: calls } : {}),
      };
      const choice = { index: 0, message, logprobs: null, finish_reason: finish };
      return {
        answer: {
          json: { ...head, object: "chat.completion", choices: [choice], usage: wireUsage },
        },
        usage,
      };
    }
    const withUsage = Boolean(
      (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage,
    );
    const events: string[] = [];
    const chunk = (delta: unknown, finishReason: string | null = null) =>
      events.push(
        sse({
          ...head,
          object: "chat.completion.chunk",
          choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
          ...(withUsage ? { usage: null } : {}),
        }),
      );
    chunk({ role: "assistant", content: "", refusal: null });
    for (const p of pieces(text, 4)) chunk({ content: p });
    for (const p of pieces(turn.refusal ?? "", 8)) chunk({ refusal: p });
    calls.forEach((c, index) => {
      chunk({
        tool_calls: [
          { index, id: c.id, type: "function", function: { name: c.function.name, arguments: "" } },
        ],
      });
      // The arguments in several pieces, as the API streams them.
      for (const p of pieces(c.function.arguments, 7))
        chunk({ tool_calls: [{ index, function: { arguments: p } }] });
    });
    chunk({}, finish);
    if (withUsage)
      events.push(sse({ ...head, object: "chat.completion.chunk", choices: [], usage: wireUsage }));
    events.push(sse("[DONE]"));
    return { answer: { events }, usage };
  },
};
