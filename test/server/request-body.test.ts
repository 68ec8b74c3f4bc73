/**
 * Every request body the API reads (src/server/request-body.ts), against the real server in this
 * process: the size limit exactly at and one byte past it — declared, chunked without a length, and
 * with a length that lies — JSON only (415), UTF-8 and JSON parse errors (400), and each
 * endpoint's shape (422 naming the field). Kept quick: the mutation group `request-body` runs it
 * for each mutant (docs/testing.md#mutation-testing).
 */

import { request } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./harness.js";

const MAX = 4096;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ maxBodyBytes: MAX });
});
afterAll(async () => {
  await h?.stop();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: Record<string, unknown>;
}

/** A request with its body sent in `chunks` (no content-length: chunked) or whole. */
function send(
  method: string,
  path: string,
  body: string | Buffer | Buffer[] | undefined,
  headers: Record<string, string> = { "content-type": "application/json" },
): Promise<Answer> {
  const u = new URL(h.url);
  return new Promise((resolve, reject) => {
    const chunked = Array.isArray(body);
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        method,
        path,
        headers: {
          ...headers,
          ...(body !== undefined && !chunked ? { "content-length": Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json: JSON.parse(text) }),
        );
      },
    );
    // A refused upload may be cut: the answer is what the test reads.
    req.on("error", () => {});
    if (chunked) {
      for (const c of body) req.write(c);
      req.end();
    } else req.end(body);
    req.on("close", () => reject(new Error("closed without an answer")));
  });
}

/**
 * A request written by hand on a socket (`length` is its content-length line, true or not), the
 * client sending nothing after `body`: the first answer's head and body.
 */
async function raw(length: string, body: string): Promise<{ head: string; body: string }> {
  const u = new URL(h.url);
  const socket = connect(Number(u.port), u.hostname);
  let text = "";
  socket.setEncoding("utf8");
  socket.on("data", (d) => {
    text += d;
  });
  socket.on("error", () => {});
  socket.write(
    `POST /threads/search HTTP/1.1\r\nhost: ${u.host}\r\ncontent-type: application/json\r\n${length}\r\n\r\n${body}`,
  );
  socket.end();
  await new Promise((r) => socket.on("close", r));
  const [head = "", rest = ""] = text.split("\r\n\r\n");
  return { head, body: rest.split("HTTP/1.1")[0]! };
}

/** A JSON object of exactly `n` bytes that /threads/search takes: `{"limit":1,"pad":"xx…"}`. */
const searchBody = (n: number) => {
  const head = '{"limit":1,"pad":"';
  return `${head}${"x".repeat(n - head.length - 2)}"}`;
};

const TOO_LARGE = {
  error: "body-too-large",
  message: `the body is larger than ${MAX} bytes`,
  detail: `the body is larger than ${MAX} bytes`,
  hint: "send a smaller input, or start the server with a larger --max-body-bytes",
};

describe("the body's size limit (--max-body-bytes)", () => {
  it("a body of exactly the limit is read; one byte more is a 413 on a closing connection", async () => {
    expect(Buffer.byteLength(searchBody(MAX))).toBe(MAX);
    const at = await send("POST", "/threads/search", searchBody(MAX));
    expect(at.status).toBe(200);
    expect(at.json).toEqual([]);
    const over = await send("POST", "/threads/search", searchBody(MAX + 1));
    expect(over.status).toBe(413);
    expect(over.json).toEqual(TOO_LARGE);
    expect(over.headers.connection).toBe("close");
  });

  it("chunked without a content-length: counted across chunks, the limit passes and one byte more does not", async () => {
    const chunks = (n: number) => {
      const b = Buffer.from(searchBody(n));
      return [b.subarray(0, 1000), b.subarray(1000, 3000), b.subarray(3000)];
    };
    const at = await send("POST", "/threads/search", chunks(MAX));
    expect(at.status).toBe(200);
    expect(at.json).toEqual([]);
    const over = await send("POST", "/threads/search", chunks(MAX + 1));
    expect(over.status).toBe(413);
    expect(over.json).toEqual(TOO_LARGE);
    expect(over.headers.connection).toBe("close");
  });

  it("a content-length over the limit is refused before any of the body is read", async () => {
    // 10 bytes of the 4097 declared, then the client stops sending: the answer comes from the
    // header alone (read on, the server would wait for the rest, or see the upload cut short).
    const { head, body } = await raw(`content-length: ${MAX + 1}`, '{"limit":1');
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(body)).toEqual(TOO_LARGE);
  });

  it("an upload that goes on past the limit: the 413, then the connection ends and closes; the rest is never read", async () => {
    // 32 MiB sent chunked: the server stops reading at the limit, answers, ends its side (FIN, so
    // the client reads the 413 rather than a reset) and closes after a linger. What the client
    // could hand over is what the kernel's buffers hold, not the upload.
    const u = new URL(h.url);
    const socket = connect(Number(u.port), u.hostname);
    const events: string[] = [];
    let text = "";
    let flushed = 0;
    socket.setEncoding("utf8");
    socket.on("data", (d) => {
      text += d;
    });
    socket.on("end", () => events.push("end"));
    socket.on("error", (e: NodeJS.ErrnoException) => events.push(e.code ?? "error"));
    socket.write(
      `POST /threads/search HTTP/1.1\r\nhost: ${u.host}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const CHUNKS = 512;
    for (let i = 0; i < CHUNKS; i++)
      socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`, (e) => {
        if (!e) flushed++;
      });
    await new Promise((r) => socket.on("close", r));
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(text.split("\r\n\r\n")[1]!)).toEqual(TOO_LARGE);
    expect(events[0]).toBe("end");
    expect(flushed).toBeLessThan(CHUNKS);
  });

  it("an empty body is `{}`, whatever its content type", async () => {
    const r = await send("POST", "/threads/search", "", { "content-type": "text/plain" });
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    const none = await send("POST", "/threads/search", undefined, {});
    expect(none.status).toBe(200);
    const spaces = await send("POST", "/threads/search", " \n\t ");
    expect(spaces.status).toBe(200);
    expect(spaces.json).toEqual([]);
  });
});

describe("JSON only", () => {
  const refused = (type: string) => ({
    error: "unsupported-media-type",
    message: `the body must be JSON, sent as \`content-type: application/json\`, not \`${type}\``,
    detail: `the body must be JSON, sent as \`content-type: application/json\`, not \`${type}\``,
    hint: "send the body with `content-type: application/json` (curl: -H 'content-type: application/json')",
  });

  it.each([
    "text/plain",
    "application/jsonp",
    "application/json charset=utf-8",
    "xapplication/json",
    "application/+json",
    "application/x-www-form-urlencoded",
    "text/json",
  ])("`%s` is a 415", async (type) => {
    const r = await send("POST", "/threads/search", '{"limit":1}', { "content-type": type });
    expect(r.status).toBe(415);
    expect(r.json).toEqual(refused(type));
  });

  it("a body without a content type is a 415 naming none", async () => {
    const r = await send("POST", "/threads/search", '{"limit":1}', {});
    expect(r.status).toBe(415);
    expect(r.json).toEqual(refused("(none)"));
  });

  it.each([
    "application/json",
    "application/json; charset=utf-8",
    "application/json;charset=UTF-8",
    "APPLICATION/JSON",
    "application/json ;charset=utf-8",
    "application/merge-patch+json",
    "application/vnd.x.y-z_1+json; charset=utf-8",
  ])("`%s` is JSON", async (type) => {
    const r = await send("POST", "/threads/search", '{"limit":1}', { "content-type": type });
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
  });
});

describe("parse errors", () => {
  it("bytes that are not UTF-8 are a 400", async () => {
    const r = await send("POST", "/threads/search", Buffer.from([0x7b, 0xff, 0x7d]));
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: "invalid-json",
      message: "the body is not UTF-8 text",
      detail: "the body is not UTF-8 text",
      hint: "send JSON, encoded as UTF-8",
    });
  });

  it("text that is not JSON is a 400 with the parser's reason", async () => {
    const r = await send("POST", "/threads/search", "{not json");
    expect(r.status).toBe(400);
    let reason = "";
    try {
      JSON.parse("{not json");
    } catch (e) {
      reason = (e as Error).message;
    }
    expect(r.json).toEqual({
      error: "invalid-json",
      message: `the body is not valid JSON: ${reason}`,
      detail: `the body is not valid JSON: ${reason}`,
      hint: "send a JSON object with `content-type: application/json`",
    });
  });
});

/**
 * Each endpoint's shape: [method, path, body, status, error code, field]. A field that fits gets
 * the endpoint's own answer (200, or a 404/409 of what it looks up); one that does not, a 422
 * naming it. Each enum value and each bound, at and past it.
 */
type Case = [string, string, unknown, number, string?, string?];
const long = (n: number) => "a".repeat(n);
const GUID = "00000000-0000-4000-8000-000000000001";

describe("each endpoint's shape", () => {
  let assistant: string;
  beforeAll(async () => {
    await send("POST", "/threads", JSON.stringify({ thread_id: "t" }));
    await send("POST", "/threads", JSON.stringify({ thread_id: "ran" }));
    await send(
      "POST",
      "/threads/ran/runs/wait",
      JSON.stringify({ assistant_id: "three-steps", input: {} }),
    );
    const a = await send("POST", "/assistants", JSON.stringify({ graph_id: "three-steps" }));
    assistant = a.json.assistant_id as string;
  });

  const cases = (): Case[] => [
    // threads.create
    ["POST", "/threads", { thread_id: "ab" }, 200],
    ["POST", "/threads", { thread_id: "" }, 422, "invalid-request", "thread_id"],
    ["POST", "/threads", { thread_id: long(512) }, 200],
    ["POST", "/threads", { thread_id: long(513) }, 422, "invalid-request", "thread_id"],
    [
      "POST",
      "/threads",
      { thread_id: "ab", if_exists: "raise" },
      409,
      "thread-exists",
      "thread_id",
    ],
    ["POST", "/threads", { thread_id: "ab", if_exists: "do_nothing" }, 200],
    ["POST", "/threads", { if_exists: "skip" }, 422, "invalid-request", "if_exists"],
    ["POST", "/threads", { metadata: 5 }, 422, "invalid-request", "metadata"],
    // threads.update
    ["PATCH", "/threads/t", { metadata: { k: 1 } }, 200],
    ["PATCH", "/threads/t", { metadata: 5 }, 422, "invalid-request", "metadata"],
    // threads.search / count
    ...["idle", "busy", "interrupted", "error"].map(
      (status): Case => ["POST", "/threads/search", { status }, 200],
    ),
    ["POST", "/threads/search", { status: "done" }, 422, "invalid-request", "status"],
    ["POST", "/threads/search", { metadata: 5 }, 422, "invalid-request", "metadata"],
    ["POST", "/threads/search", { values: null }, 200],
    ["POST", "/threads/search", { values: 5 }, 422, "invalid-request", "values"],
    ["POST", "/threads/search", { ids: ["t"] }, 200],
    ["POST", "/threads/search", { ids: [1] }, 422, "invalid-request", "ids.0"],
    ["POST", "/threads/search", { limit: 2, offset: 1 }, 200],
    ["POST", "/threads/search", { limit: 1000, offset: 0 }, 200],
    ["POST", "/threads/search", { limit: 1001 }, 422, "invalid-request", "limit"],
    ["POST", "/threads/search", { limit: 0 }, 422, "invalid-request", "limit"],
    ["POST", "/threads/search", { limit: 1.5 }, 422, "invalid-request", "limit"],
    ["POST", "/threads/search", { offset: -1 }, 422, "invalid-request", "offset"],
    ["POST", "/threads/count", { status: "busy" }, 200],
    // threads.prune (a prefix no thread has)
    ["POST", "/threads/prune", { prefix: "zz" }, 200],
    ["POST", "/threads/prune", { prefix: "" }, 422, "invalid-request", "prefix"],
    // threads.getState at a checkpoint
    ["POST", "/threads/t/state/checkpoint", { checkpoint: null, subgraphs: true }, 200],
    [
      "POST",
      "/threads/t/state/checkpoint",
      { checkpoint: { checkpoint_id: "cp" } },
      404,
      "checkpoint-not-found",
    ],
    [
      "POST",
      "/threads/t/state/checkpoint",
      { checkpoint: 5 },
      422,
      "invalid-request",
      "checkpoint",
    ],
    [
      "POST",
      "/threads/t/state/checkpoint",
      { checkpoint: { checkpoint_id: "" } },
      422,
      "invalid-request",
      "checkpoint.checkpoint_id",
    ],
    [
      "POST",
      "/threads/t/state/checkpoint",
      { subgraphs: "yes" },
      422,
      "invalid-request",
      "subgraphs",
    ],
    // threads.updateState, from the latest or a checkpoint given either way
    ["POST", "/threads/t/state", { values: {} }, 409, "thread-not-started"],
    ["POST", "/threads/t/state", { values: null, as_node: "one" }, 409, "thread-not-started"],
    ["POST", "/threads/t/state", { values: 5 }, 422, "invalid-request", "values"],
    ["POST", "/threads/t/state", { as_node: 5 }, 422, "invalid-request", "as_node"],
    ["POST", "/threads/t/state", { checkpoint_id: "" }, 422, "invalid-request", "checkpoint_id"],
    [
      "POST",
      "/threads/t/state",
      { checkpoint: { checkpoint_id: "" } },
      422,
      "invalid-request",
      "checkpoint.checkpoint_id",
    ],
    [
      "POST",
      "/threads/ran/state",
      { values: {}, checkpoint_id: "cp-a" },
      404,
      "checkpoint-not-found",
    ],
    [
      "POST",
      "/threads/ran/state",
      { values: {}, checkpoint: { checkpoint_id: "cp-b" } },
      404,
      "checkpoint-not-found",
    ],
    // threads.getHistory
    ["POST", "/threads/t/history", { limit: 1000, metadata: null, before: "cp" }, 200],
    ["POST", "/threads/t/history", { before: { checkpoint_id: "cp" } }, 200],
    ["POST", "/threads/t/history", { before: { configurable: { checkpoint_id: "cp" } } }, 200],
    ["POST", "/threads/t/history", { limit: 1001 }, 422, "invalid-request", "limit"],
    ["POST", "/threads/t/history", { limit: 0 }, 422, "invalid-request", "limit"],
    ["POST", "/threads/t/history", { metadata: 5 }, 422, "invalid-request", "metadata"],
    ["POST", "/threads/t/history", { before: 5 }, 422, "invalid-request", "before"],
    [
      "POST",
      "/threads/t/history",
      { before: { checkpoint_id: 5 } },
      422,
      "invalid-request",
      "before",
    ],
    [
      "POST",
      "/threads/t/history",
      { before: { configurable: { checkpoint_id: 5 } } },
      422,
      "invalid-request",
      "before",
    ],
    // assistants.search / count
    ...["assistant_id", "graph_id", "created_at", "updated_at", "name"].flatMap((sort_by) =>
      ["asc", "desc"].map(
        (sort_order): Case => ["POST", "/assistants/search", { sort_by, sort_order }, 200],
      ),
    ),
    ["POST", "/assistants/search", { sort_by: "size" }, 422, "invalid-request", "sort_by"],
    ["POST", "/assistants/search", { sort_order: "up" }, 422, "invalid-request", "sort_order"],
    [
      "POST",
      "/assistants/search",
      { graph_id: null, name: null, metadata: null, select: ["name"] },
      200,
    ],
    ["POST", "/assistants/search", { graph_id: 5 }, 422, "invalid-request", "graph_id"],
    ["POST", "/assistants/search", { name: 5 }, 422, "invalid-request", "name"],
    ["POST", "/assistants/search", { metadata: 5 }, 422, "invalid-request", "metadata"],
    ["POST", "/assistants/search", { select: "name" }, 422, "invalid-request", "select"],
    ["POST", "/assistants/search", { limit: 1000, offset: 1 }, 200],
    ["POST", "/assistants/search", { limit: 2, offset: 0 }, 200],
    ["POST", "/assistants/search", { limit: 1001 }, 422, "invalid-request", "limit"],
    ["POST", "/assistants/search", { limit: 0 }, 422, "invalid-request", "limit"],
    ["POST", "/assistants/search", { offset: -1 }, 422, "invalid-request", "offset"],
    ["POST", "/assistants/count", { graph_id: 5 }, 422, "invalid-request", "graph_id"],
    // assistants.getVersions
    ["POST", `/assistants/${assistant}/versions`, { metadata: null, limit: 1000, offset: 1 }, 200],
    ["POST", `/assistants/${assistant}/versions`, { limit: 2, offset: 0 }, 200],
    [
      "POST",
      `/assistants/${assistant}/versions`,
      { metadata: 5 },
      422,
      "invalid-request",
      "metadata",
    ],
    ["POST", `/assistants/${assistant}/versions`, { limit: 1001 }, 422, "invalid-request", "limit"],
    ["POST", `/assistants/${assistant}/versions`, { limit: 0 }, 422, "invalid-request", "limit"],
    ["POST", `/assistants/${assistant}/versions`, { offset: -1 }, 422, "invalid-request", "offset"],
    // assistants.setLatest
    ["POST", `/assistants/${assistant}/latest`, { version: 1 }, 200],
    [
      "POST",
      `/assistants/${assistant}/latest`,
      { version: 2 },
      404,
      "assistant-version-not-found",
      "version",
    ],
    ["POST", `/assistants/${assistant}/latest`, { version: 0 }, 422, "invalid-request", "version"],
    [
      "POST",
      `/assistants/${assistant}/latest`,
      { version: 1.5 },
      422,
      "invalid-request",
      "version",
    ],
    // assistants.create
    [
      "POST",
      "/assistants",
      {
        graph_id: "three-steps",
        assistant_id: GUID,
        if_exists: "raise",
        name: long(200),
        description: long(2000),
      },
      200,
    ],
    [
      "POST",
      "/assistants",
      { graph_id: "three-steps", assistant_id: GUID, if_exists: "raise" },
      409,
      "assistant-exists",
      "assistant_id",
    ],
    [
      "POST",
      "/assistants",
      { graph_id: "three-steps", assistant_id: GUID, if_exists: "do_nothing" },
      200,
    ],
    [
      "POST",
      "/assistants",
      {
        graph_id: "three-steps",
        config: { configurable: {} },
        context: null,
        metadata: null,
        name: null,
        description: null,
      },
      200,
    ],
    ["POST", "/assistants", { graph_id: "" }, 422, "invalid-request", "graph_id"],
    [
      "POST",
      "/assistants",
      { graph_id: "three-steps", assistant_id: "nope" },
      422,
      "invalid-request",
      "assistant_id",
    ],
    [
      "POST",
      "/assistants",
      { graph_id: "three-steps", if_exists: "skip" },
      422,
      "invalid-request",
      "if_exists",
    ],
    [
      "POST",
      "/assistants",
      { graph_id: "three-steps", name: long(201) },
      422,
      "invalid-request",
      "name",
    ],
    [
      "POST",
      "/assistants",
      { graph_id: "three-steps", description: long(2001) },
      422,
      "invalid-request",
      "description",
    ],
    [
      "POST",
      "/assistants",
      { graph_id: "three-steps", config: 5 },
      422,
      "invalid-request",
      "config",
    ],
    [
      "POST",
      "/assistants",
      { graph_id: "three-steps", config: { configurable: 5 } },
      422,
      "invalid-request",
      "config.configurable",
    ],
    [
      "POST",
      "/assistants",
      { graph_id: "three-steps", context: 5 },
      422,
      "invalid-request",
      "context",
    ],
    [
      "POST",
      "/assistants",
      { graph_id: "three-steps", metadata: 5 },
      422,
      "invalid-request",
      "metadata",
    ],
    // assistants.update
    ["PATCH", `/assistants/${assistant}`, { graph_id: "three-steps", name: "ab" }, 200],
    ["PATCH", `/assistants/${assistant}`, { graph_id: "" }, 422, "invalid-request", "graph_id"],
    ["PATCH", `/assistants/${assistant}`, { name: long(201) }, 422, "invalid-request", "name"],
    // runs
    [
      "POST",
      "/threads/t/runs/wait",
      { assistant_id: "", input: {} },
      422,
      "invalid-request",
      "assistant_id",
    ],
    [
      "POST",
      "/threads/t/runs/wait",
      { assistant_id: "three-steps", input: "go" },
      422,
      "invalid-request",
      "input",
    ],
    [
      "POST",
      "/threads/t/runs/wait",
      { assistant_id: "three-steps", command: 5 },
      422,
      "invalid-request",
      "command",
    ],
    [
      "POST",
      "/threads/t/runs/wait",
      { assistant_id: "three-steps", config: 5 },
      422,
      "invalid-request",
      "config",
    ],
    [
      "POST",
      "/threads/t/runs/wait",
      { assistant_id: "three-steps", config: { configurable: 5 } },
      422,
      "invalid-request",
      "config.configurable",
    ],
    [
      "POST",
      "/threads/t/runs/wait",
      { assistant_id: "three-steps", context: 5 },
      422,
      "invalid-request",
      "context",
    ],
    [
      "POST",
      "/threads/t/runs/wait",
      { assistant_id: "three-steps", metadata: 5 },
      422,
      "invalid-request",
      "metadata",
    ],
    [
      "POST",
      "/threads/t/runs/wait",
      { assistant_id: "three-steps", stream_subgraphs: "yes" },
      422,
      "invalid-request",
      "stream_subgraphs",
    ],
    [
      "POST",
      "/threads/t/runs/wait",
      { assistant_id: "three-steps", multitask_strategy: "queue" },
      422,
      "invalid-request",
      "multitask_strategy",
    ],
    // `interrupt` and `enqueue` are taken (test/server/multitask-*.test.ts): on an idle thread, a 200.
    ...["interrupt", "enqueue"].map(
      (multitask_strategy): Case => [
        "POST",
        "/threads/t/runs/wait",
        { assistant_id: "three-steps", multitask_strategy },
        200,
        undefined,
        undefined,
      ],
    ),
    ...["rollback"].map(
      (multitask_strategy): Case => [
        "POST",
        "/threads/t/runs/wait",
        { assistant_id: "three-steps", multitask_strategy },
        422,
        "unsupported",
        "multitask_strategy",
      ],
    ),
    [
      "POST",
      "/threads/t/runs/wait",
      { assistant_id: "three-steps", if_not_exists: "make" },
      422,
      "invalid-request",
      "if_not_exists",
    ],
    [
      "POST",
      "/threads/new-one/runs/wait",
      { assistant_id: "three-steps", if_not_exists: "reject" },
      404,
      "thread-not-found",
    ],
    [
      "POST",
      "/threads/t/runs/wait",
      { assistant_id: "three-steps", on_completion: "drop" },
      422,
      "invalid-request",
      "on_completion",
    ],
    [
      "POST",
      "/threads/t/runs/wait",
      { assistant_id: "three-steps", checkpoint_id: "" },
      422,
      "invalid-request",
      "checkpoint_id",
    ],
    [
      "POST",
      "/threads/ran/runs/wait",
      { assistant_id: "three-steps", checkpoint_id: "cp-c" },
      404,
      "checkpoint-not-found",
    ],
    [
      "POST",
      "/threads/ran/runs/wait",
      { assistant_id: "three-steps", checkpoint: { checkpoint_id: "cp-d" } },
      404,
      "checkpoint-not-found",
    ],
    [
      "POST",
      "/threads/ran/runs/wait",
      { assistant_id: "three-steps", input: {}, checkpoint: null, checkpoint_id: null },
      200,
    ],
    [
      "POST",
      "/runs/wait",
      {
        assistant_id: "three-steps",
        input: null,
        on_completion: "keep",
        multitask_strategy: "reject",
        if_not_exists: "create",
        stream_subgraphs: null,
        command: null,
        context: null,
        metadata: null,
        config: null,
      },
      200,
    ],
    ["POST", "/runs/wait", { assistant_id: "three-steps", on_completion: "delete" }, 200],
    [
      "POST",
      "/threads/made/runs/wait",
      { assistant_id: "three-steps", if_not_exists: "create" },
      200,
    ],
  ];

  it("a field that fits is taken, one that does not is a 422 naming it", async () => {
    const seen: unknown[] = [];
    const wanted: unknown[] = [];
    for (const [method, path, body, status, error, field] of cases()) {
      const r = await send(method, path, JSON.stringify(body));
      const got = r.status >= 400 ? r.json : {};
      seen.push([method, path, body, r.status, got.error, got.field]);
      wanted.push([method, path, body, status, error, field]);
    }
    expect(seen).toEqual(wanted);
  });

  it("a 422 names the field in its message, or the body when the problem is the body itself", async () => {
    const field = await send("POST", "/threads/search", JSON.stringify({ limit: "ten" }));
    expect(field.json).toEqual({
      error: "invalid-request",
      message: "`limit`: Invalid input: expected number, received string",
      detail: "`limit`: Invalid input: expected number, received string",
      field: "limit",
      hint: "see docs/server.md for the fields each endpoint takes",
    });
    const nested = await send("POST", "/threads/search", JSON.stringify({ ids: ["a", 2] }));
    expect(nested.json.field).toBe("ids.1");
    expect(nested.json.message).toBe("`ids.1`: Invalid input: expected string, received number");
    const whole = await send("POST", "/threads/search", "[1]");
    expect(whole.json).toEqual({
      error: "invalid-request",
      message: "the body: Invalid input: expected object, received array",
      detail: "the body: Invalid input: expected object, received array",
      hint: "see docs/server.md for the fields each endpoint takes",
    });
  });
});
