/**
 * A small OpenAI-compatible server on 127.0.0.1 for exercising the real `@langchain/openai` client
 * over real HTTP: `POST /v1/chat/completions`, plain and streaming (server-sent events), with text,
 * tool calls and usage, answering from a queue of turns. The requests it received are kept.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface StubTurn {
  text?: string;
  /** Answer with this HTTP status and an OpenAI-style error body instead (e.g. 429). */
  status?: number;
  tool_calls?: { name: string; args: Record<string, unknown>; id?: string }[];
  usage?: { prompt_tokens: number; completion_tokens: number };
}

export interface OpenAIStub {
  /** The base URL, ending in /v1. */
  url: string;
  /** Parsed request bodies, in order. */
  requests: Record<string, unknown>[];
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

export async function startOpenAIStub(turns: (StubTurn | string)[]): Promise<OpenAIStub> {
  const queue = turns.map((t) => (typeof t === "string" ? { text: t } : t));
  const requests: Record<string, unknown>[] = [];
  let calls = 0;
  const server = createServer(async (req, res) => {
    if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
      send(res, 404, {
        error: { message: `no route ${req.method} ${req.url}`, type: "invalid_request_error" },
      });
      return;
    }
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    requests.push(body);
    const turn = queue.shift();
    if (!turn) {
      send(res, 500, { error: { message: "the stub has no answer left", type: "server_error" } });
      return;
    }
    if (turn.status !== undefined) {
      const type = turn.status === 429 ? "rate_limit_exceeded" : "server_error";
      send(res, turn.status, {
        error: { message: turn.text ?? `status ${turn.status}`, type, code: type },
      });
      return;
    }
    const id = `chatcmpl-${++calls}`;
    const model = String(body.model);
    const toolCalls = (turn.tool_calls ?? []).map((c, i) => ({
      id: c.id ?? `call_${calls}_${i}`,
      type: "function",
      function: { name: c.name, arguments: JSON.stringify(c.args) },
    }));
    const usage = turn.usage ?? { prompt_tokens: 10, completion_tokens: 5 };
    const usageBody = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
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
              content: turn.text ?? null,
              ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
            },
            finish_reason: finish,
          },
        ],
        usage: usageBody,
      });
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const chunk = (
      delta: unknown,
      finishReason: string | null = null,
      extra: Record<string, unknown> = {},
    ) =>
      res.write(
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`,
      );
    chunk({ role: "assistant", content: "" });
    // The text in a few pieces, so a client sees tokens arrive.
    const text = turn.text ?? "";
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
      res.write(
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 0, model, choices: [], usage: usageBody })}\n\n`,
      );
    }
    res.end("data: [DONE]\n\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
