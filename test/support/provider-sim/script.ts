/**
 * What a provider simulator answers, one turn per request, in order — the same script for the
 * OpenAI and the Anthropic APIs, so one test can run against either.
 */

/** A tool call the model makes; `id` defaults to a fresh one in the provider's style. */
export interface SimToolCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
}

/** Tokens a call used, as the provider reports them. */
export interface SimUsage {
  input_tokens: number;
  output_tokens: number;
}

/** One answer, like a scripted model's turn. A bare string is `{ text }`. */
export interface SimTurn {
  text?: string;
  /** Several calls are parallel tool calls in one answer. */
  tool_calls?: SimToolCall[];
  /**
   * A structured answer: JSON text when the request asks for a JSON schema (OpenAI's
   * `response_format`, Anthropic's `output_config.format`), else a call of the tool its
   * `tool_choice` forces (LangChain's function-calling method), else JSON text.
   */
  structured?: unknown;
  /** The model declines (OpenAI: `refusal`; Anthropic: `stop_reason: "refusal"`), with this text. */
  refusal?: string;
  /** The answer was cut at the token limit (OpenAI: `finish_reason: "length"`; Anthropic: `max_tokens`). */
  truncated?: boolean;
  /** Default: 10 input and 5 output tokens. */
  usage?: SimUsage;
  /** Answer with this HTTP status and the provider's error body instead (e.g. 429); `text` is its message. */
  status?: number;
  /**
   * With `status`: the error's type. OpenAI: the body's `type` and `code` (default
   * `rate_limit_exceeded` for 429, `invalid_api_key` for 401, else `server_error`), e.g.
   * `insufficient_quota`; Anthropic: `error.type` (default from the status, e.g. `rate_limit_error`).
   */
  errorType?: string;
  /** With `status`: a `retry-after` header, in seconds. */
  retryAfter?: number;
  /**
   * A streamed answer that fails midway: half its chunks, then the provider's error event with
   * this message (OpenAI: a chunk with `error`; Anthropic: `event: error`, `overloaded_error`
   * unless `errorType` says), and the end of the stream. A call not streamed gets a 500.
   */
  failMidStream?: string;
  /**
   * A stalled connection. `true`: never answer (the request stays open until the simulator
   * closes; a client's `timeout` ends it). `"mid-stream"`: the answer stops after half its
   * chunks (or, not streamed, half its body) and never ends.
   */
  stall?: boolean | "mid-stream";
  /** Extra headers on the answer, e.g. a gateway's `x-litellm-response-cost`. */
  headers?: Record<string, string>;
}

export const DEFAULT_USAGE: SimUsage = { input_tokens: 10, output_tokens: 5 };

/** The text and tool calls a turn answers with, given how the request asked for structure. */
export function answerOf(
  turn: SimTurn,
  ask: { forcedTool: string | undefined; jsonSchema: boolean },
): { text: string; toolCalls: SimToolCall[] } {
  if (turn.structured === undefined) {
    return { text: turn.text ?? "", toolCalls: turn.tool_calls ?? [] };
  }
  if (ask.forcedTool && !ask.jsonSchema) {
    const args = turn.structured as Record<string, unknown>;
    return { text: "", toolCalls: [{ name: ask.forcedTool, args }] };
  }
  return { text: JSON.stringify(turn.structured), toolCalls: [] };
}

/** `text` in pieces of `size` characters — at least two when it is longer than one — so a client sees it arrive in parts. */
export function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  const step = text.length > 1 ? Math.min(size, Math.ceil(text.length / 2)) : size;
  for (let i = 0; i < text.length; i += step) out.push(text.slice(i, i + step));
  return out;
}
