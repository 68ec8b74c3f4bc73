/**
 * A small OpenAI-compatible server on 127.0.0.1 for exercising the real `@langchain/openai` client
 * over real HTTP: `POST /v1/chat/completions`, plain and streaming (server-sent events), with text,
 * tool calls and usage, answering from a queue of turns. The requests it received are kept.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/** One answer, in order, like a scripted model's turn. A bare string is `{ text }`. */
export interface StubTurn {
  text?: string;
  tool_calls?: { name: string; args: Record<string, unknown>; id?: string }[];
  /**
   * A structured answer: JSON text when the request asks for a `response_format`, else a call of
   * the function its `tool_choice` forces (LangChain's function-calling method), else JSON text.
   */
  structured?: unknown;
  /** Default: 10 input and 5 output tokens. */
  usage?: { input_tokens: number; output_tokens: number };
  /** Answer with this HTTP status and an OpenAI-style error body instead (e.g. 429); `text` is its message. */
  status?: number;
  /** With `status`: the error body's `type` and `code` (default `rate_limit_exceeded` for 429), e.g. `insufficient_quota`. */
  errorType?: string;
  /** Never answer: the request stays open until the stub closes (a client's `timeout` ends it). */
  stall?: boolean;
}

export interface OpenAIStub {
  /** The base URL, ending in /v1. */
  url: string;
  /** Parsed request bodies, in order. */
  requests: Record<string, unknown>[];
  /** The headers of those requests (lower-case names), in the same order. */
  headers: IncomingHttpHeaders[];
  close(): Promise<void>;
}

type Body = Record<string, unknown>;

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

const errorBody = (message: string, type: string) => ({ error: { message, type, code: type } });

async function readBody(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

/** The function a request forces with `tool_choice`, if any. */
const forcedFunction = (body: Body) =>
  (body.tool_choice as { function?: { name?: string } } | undefined)?.function?.name;

/** The turn's text and tool calls as this request should get them. */
function answerOf(turn: StubTurn, body: Body): Pick<StubTurn, "text" | "tool_calls"> {
  if (turn.structured === undefined) return turn;
  const forced = forcedFunction(body);
  if (forced && !body.response_format) {
    return { tool_calls: [{ name: forced, args: turn.structured as Record<string, unknown> }] };
  }
  return { text: JSON.stringify(turn.structured) };
}

export async function startOpenAIStub(turns: (StubTurn | string)[]): Promise<OpenAIStub> {
  const queue = turns.map((t) => (typeof t === "string" ? { text: t } : t));
  const requests: Body[] = [];
  const headers: IncomingHttpHeaders[] = [];
  let calls = 0;
  const server = createServer(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      send(res, 404, errorBody(`no route ${req.method} ${req.url}`, "invalid_request_error"));
      return;
    }
    let body: Body;
    try {
      body = JSON.parse(await readBody(req)) as Body;
    } catch {
      send(res, 400, errorBody("the request body is not JSON", "invalid_request_error"));
      return;
    }
    requests.push(body);
    headers.push(req.headers);
    const turn = queue.shift();
    if (!turn) {
      send(
        res,
        500,
        errorBody(
          `the stub has no answer left: this is request ${requests.length}`,
          "server_error",
        ),
      );
      return;
    }
    if (turn.stall) return;
    if (turn.status !== undefined) {
      const type = turn.errorType ?? (turn.status === 429 ? "rate_limit_exceeded" : "server_error");
      send(res, turn.status, errorBody(turn.text ?? `status ${turn.status}`, type));
      return;
    }
    const id = `chatcmpl-${++calls}`;
    const model = String(body.model);
    const answer = answerOf(turn, body);
    const toolCalls = (answer.tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `call_${calls}_${i}`,
      type: "function",
      function: { name: c.name, arguments: JSON.stringify(c.args) },
    }));
    const { input_tokens, output_tokens } = turn.usage ?? { input_tokens: 10, output_tokens: 5 };
    const usage = {
      prompt_tokens: input_tokens,
      completion_tokens: output_tokens,
      total_tokens: input_tokens + output_tokens,
    };
    const finish = toolCalls.length ? "tool_calls" : "stop";
    if (!body.stream) {
      send(res, 200, {
        id,
        object: "chat.completion",
        created: 0,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: answer.text ?? null,
              ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
            },
            finish_reason: finish,
          },
        ],
        usage,
      });
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const event = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    const chunk = (delta: unknown, finishReason: string | null = null) =>
      event({
        id,
        object: "chat.completion.chunk",
        created: 0,
        model,
        choices: [{ index: 0, delta, finish_reason: finishReason }],
      });
    chunk({ role: "assistant", content: "" });
    // The text in pieces of four characters, so a client sees tokens arrive.
    const text = answer.text ?? "";
    for (let i = 0; i < text.length; i += 4) chunk({ content: text.slice(i, i + 4) });
    toolCalls.forEach((c, index) => {
      chunk({
        tool_calls: [
          { index, id: c.id, type: "function", function: { name: c.function.name, arguments: "" } },
        ],
      });
      chunk({ tool_calls: [{ index, function: { arguments: c.function.arguments } }] });
    });
    chunk({}, finish);
    if ((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage) {
      event({ id, object: "chat.completion.chunk", created: 0, model, choices: [], usage });
    }
    res.end("data: [DONE]\n\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    headers,
    close: () =>
      new Promise((resolve, reject) => {
        // Keep-alive connections would hold close() open until they time out.
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
