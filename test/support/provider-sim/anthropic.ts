/**
 * Anthropic's Messages API (`POST /v1/messages`) as `@anthropic-ai/sdk` and
 * `@langchain/anthropic`'s ChatAnthropic read it: a `message` of content blocks (`text`,
 * `tool_use`), or its stream — `message_start` (with the input tokens), `ping`, per block
 * `content_block_start` / `content_block_delta` (`text_delta`, `input_json_delta` in pieces) /
 * `content_block_stop`, `message_delta` (stop reason and the output tokens) and `message_stop`.
 *
 * `message_start` reports 0 output tokens (the real API says 1 or 2 there, and ChatAnthropic
 * adds that to `message_delta`'s total — LangChain's over-count, kept out of tests about ours).
 */
import { type SimApi, sse } from "./api.js";
import { answerOf, DEFAULT_USAGE, pieces } from "./script.js";

type Body = Record<string, unknown>;

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  529: "overloaded_error",
};

/** The tool a request forces with `tool_choice: { type: "tool", name }`, if any. */
const forcedTool = (body: Body) => {
  const choice = body.tool_choice as { type?: string; name?: string } | undefined;
  return choice?.type === "tool" ? choice.name : undefined;
};

/** Whether the request asks for JSON matching a schema (`output_config.format`, or the older `output_format`). */
const asksJsonSchema = (body: Body) =>
  Boolean((body.output_config as { format?: unknown } | undefined)?.format ?? body.output_format);

export const anthropicApi: SimApi = {
  name: "anthropic",
  path: "/v1/messages",
  headers: (call) => ({ "request-id": `req_sim_${call}` }),
  error: (status, message, type) => ({
    type: "error",
    error: { type: type ?? ERROR_TYPES[status] ?? "api_error", message },
    request_id: `req_sim_error_${status}`,
  }),
  // An `error` event, as when the API is overloaded mid-answer.
  streamError: (message, type) =>
    sse(anthropicApi.error(529, message, type ?? "overloaded_error"), "error"),
  answer(turn, body, call) {
    const id = `msg_sim_${call}`;
    const model = String(body.model);
    const { text: answerText, toolCalls } = answerOf(turn, {
      forcedTool: forcedTool(body),
      jsonSchema: asksJsonSchema(body),
    });
    const text = turn.refusal ?? answerText;
    const uses = toolCalls.map((c, i) => ({
      type: "tool_use" as const,
      id: c.id ?? `toolu_sim_${call}_${i}`,
      name: c.name,
      input: c.args,
    }));
    const usage = turn.usage ?? DEFAULT_USAGE;
    const stop = turn.truncated
      ? "max_tokens"
      : turn.refusal !== undefined
        ? "refusal"
        : uses.length
          ? "tool_use"
          : "end_turn";
    const blocks = [...(text ? [{ type: "text" as const, text }] : []), ...uses];
    const wireUsage = {
      input_tokens: usage.input_tokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: usage.output_tokens,
    };
    const message = { id, type: "message", role: "assistant", model };
    if (!body.stream) {
      const json = {
        ...message,
        content: blocks,
        stop_reason: stop,
        stop_sequence: null,
        usage: wireUsage,
      };
      return { answer: { json }, usage };
    }
    const events: string[] = [];
    const event = (data: { type: string; [key: string]: unknown }) =>
      events.push(sse(data, data.type));
    event({
      type: "message_start",
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...wireUsage, output_tokens: 0 },
      },
    });
    event({ type: "ping" });
    blocks.forEach((block, index) => {
      if (block.type === "text") {
        event({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
        for (const p of pieces(block.text, 4))
          event({ type: "content_block_delta", index, delta: { type: "text_delta", text: p } });
      } else {
        event({ type: "content_block_start", index, content_block: { ...block, input: {} } });
        // The input as JSON in pieces, starting with an empty one as the API does.
        for (const p of ["", ...pieces(JSON.stringify(block.input), 7)])
          event({
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json: p },
          });
      }
      event({ type: "content_block_stop", index });
    });
    event({
      type: "message_delta",
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    });
    event({ type: "message_stop" });
    return { answer: { events }, usage };
  },
};
