/**
 * A model provider on 127.0.0.1 for the real LangChain clients over real HTTP: OpenAI's Chat
 * Completions and Anthropic's Messages API on one port, answering from one queue of scripted
 * turns (whichever API asks), recording every request, and summing the usage it reported.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicApi } from "./anthropic.js";
import type { SimApi } from "./api.js";
import { openaiApi } from "./openai.js";
import type { SimTurn, SimUsage } from "./script.js";

/** A request as the simulator got it. */
export interface SimRequest {
  api: SimApi["name"];
  body: Record<string, unknown>;
  /** Lower-case names. */
  headers: IncomingHttpHeaders;
}

export interface ProviderSim {
  /** OpenAI's base URL, ending in /v1 (ChatOpenAI's `configuration.baseURL`). */
  openaiUrl: string;
  /** Anthropic's base URL, without /v1 (ChatAnthropic's `anthropicApiUrl`). */
  anthropicUrl: string;
  /** Every request, in order. */
  requests: SimRequest[];
  /** The usage of every answer given, in order: what a client should count, each once. */
  reported: SimUsage[];
  /** The sum of `reported`. */
  reportedTotal(): SimUsage;
  /** More turns at the end of the queue. */
  push(...turns: (SimTurn | string)[]): void;
  close(): Promise<void>;
}

const APIS = [openaiApi, anthropicApi];

async function readBody(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export async function startProviderSim(turns: (SimTurn | string)[] = []): Promise<ProviderSim> {
  const queue: SimTurn[] = [];
  const push = (...more: (SimTurn | string)[]) =>
    queue.push(...more.map((t) => (typeof t === "string" ? { text: t } : t)));
  push(...turns);
  const requests: SimRequest[] = [];
  const reported: SimUsage[] = [];
  let calls = 0;
  const server = createServer(async (req, res) => {
    const api = APIS.find((a) => req.method === "POST" && req.url?.split("?")[0] === a.path);
    if (!api) {
      sendJson(
        res,
        404,
        openaiApi.error(404, `no route ${req.method} ${req.url}`, "invalid_request_error"),
      );
      return;
    }
    const call = ++calls;
    let headers = api.headers(call);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      sendJson(res, 400, api.error(400, "the request body is not JSON", undefined), headers);
      return;
    }
    requests.push({ api: api.name, body, headers: req.headers });
    const turn = queue.shift();
    if (!turn) {
      const message = `the stub has no answer left: this is request ${requests.length}`;
      sendJson(res, 500, api.error(500, message, undefined), headers);
      return;
    }
    if (turn.stall === true) return;
    headers = { ...headers, ...turn.headers };
    if (turn.status !== undefined) {
      const retry: Record<string, string> =
        turn.retryAfter !== undefined ? { "retry-after": String(turn.retryAfter) } : {};
      const message = turn.text ?? `status ${turn.status}`;
      sendJson(res, turn.status, api.error(turn.status, message, turn.errorType), {
        ...headers,
        ...retry,
      });
      return;
    }
    const { answer, usage } = api.answer(turn, body, call);
    if (turn.failMidStream !== undefined && "json" in answer) {
      sendJson(res, 500, api.error(500, turn.failMidStream, turn.errorType), headers);
      return;
    }
    if ("json" in answer && turn.stall === "mid-stream") {
      // Half the body, then nothing: the connection stays open, the answer never ends.
      const text = JSON.stringify(answer.json);
      res.writeHead(200, { "content-type": "application/json", ...headers });
      res.write(text.slice(0, Math.ceil(text.length / 2)));
      return;
    }
    if ("json" in answer) {
      reported.push(usage);
      sendJson(res, 200, answer.json, headers);
      return;
    }
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      ...headers,
    });
    const half = answer.events.slice(0, Math.ceil(answer.events.length / 2));
    if (turn.failMidStream !== undefined) {
      res.end(half.join("") + api.streamError(turn.failMidStream, turn.errorType));
      return;
    }
    if (turn.stall === "mid-stream") {
      // The first half of the chunks, then nothing: the connection stays open, the answer never ends.
      for (const e of half) res.write(e);
      return;
    }
    reported.push(usage);
    res.end(answer.events.join(""));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const root = `http://127.0.0.1:${port}`;
  return {
    openaiUrl: `${root}/v1`,
    anthropicUrl: root,
    requests,
    reported,
    reportedTotal: () =>
      reported.reduce(
        (a, u) => ({
          input_tokens: a.input_tokens + u.input_tokens,
          output_tokens: a.output_tokens + u.output_tokens,
        }),
        { input_tokens: 0, output_tokens: 0 },
      ),
    push,
    close: () =>
      new Promise((resolve, reject) => {
        // Keep-alive (and stalled) connections would hold close() open until they time out.
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}
