/**
 * `jsonBody` on its own, with a Hono app: reading a web stream (where no Node request is at hand —
 * another runtime, or a body something read before: graphspec's server always serves on Node with
 * the request at hand), and reading Node's request event by event, for what no client can show —
 * how chunks are joined, a request that errors or whose client leaves mid-body.
 */
import { EventEmitter } from "node:events";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/server/api-error.js";
import { jsonBody } from "../../src/server/request-body.js";

const app = new Hono();
app.post("/", async (c) => c.json({ body: await jsonBody(c, 8) }));
app.onError((e, c) =>
  e instanceof ApiError ? c.json(e.body(), e.status) : c.json({ unexpected: String(e) }, 500),
);

/** A POST whose body arrives as these chunks, with no content-length. */
const post = (...chunks: string[]) =>
  app.request("/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: new ReadableStream({
      start(controller) {
        for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
        controller.close();
      },
    }),
    duplex: "half",
  } as RequestInit);

describe("a body read from a web stream", () => {
  it("of exactly the limit, in chunks, is read", async () => {
    const r = await post('{"ab"', ":1}");
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ body: { ab: 1 } });
  });

  it("one byte more is a 413 on a closing connection", async () => {
    const r = await post('{"ab"', ":12}");
    expect(r.status).toBe(413);
    expect(r.headers.get("connection")).toBe("close");
    expect(await r.json()).toEqual({
      error: "body-too-large",
      message: "the body is larger than 8 bytes",
      detail: "the body is larger than 8 bytes",
      hint: "send a smaller input, or start the server with a larger --max-body-bytes",
    });
  });

  it("none at all is `{}`", async () => {
    const r = await app.request("/", { method: "POST" });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ body: {} });
  });
});

/** Node's request as jsonBody reads it: its events, driven by the test. */
class Incoming extends EventEmitter {
  readableDidRead = false;
  complete = false;
  paused = false;
  pause() {
    this.paused = true;
    return this;
  }
}

/** Listeners jsonBody left on the request (none once it settled). */
const listening = (incoming: Incoming) =>
  ["data", "end", "error", "close"].map((e) => incoming.listenerCount(e)).reduce((a, b) => a + b);

/** A POST read from `incoming`, which `drive` feeds once jsonBody listens. */
async function fromIncoming(incoming: Incoming, drive: () => void, init: RequestInit = {}) {
  const answer = app.request(
    "/",
    { method: "POST", headers: { "content-type": "application/json" }, ...init },
    { incoming },
  );
  await new Promise((r) => setImmediate(r));
  drive();
  const r = await answer;
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

describe("a body read from Node's request", () => {
  it("in chunks, joined in order; within the limit", async () => {
    const incoming = new Incoming();
    const r = await fromIncoming(incoming, () => {
      incoming.emit("data", Buffer.from('{"ab"'));
      incoming.emit("data", Buffer.from(":1}"));
      incoming.complete = true;
      incoming.emit("end");
    });
    expect(r).toEqual({ status: 200, json: { body: { ab: 1 } } });
    expect(listening(incoming)).toBe(0);
  });

  it("one byte past the limit: a 413, the request paused and no longer listened to", async () => {
    const incoming = new Incoming();
    const r = await fromIncoming(incoming, () => {
      incoming.emit("data", Buffer.from('{"ab"'));
      incoming.emit("data", Buffer.from(":12}"));
    });
    expect(r.status).toBe(413);
    expect(r.json.error).toBe("body-too-large");
    expect(incoming.paused).toBe(true);
    expect(listening(incoming)).toBe(0);
  });

  it("an error, or the client leaving before the body is complete, fails the request", async () => {
    const failing = new Incoming();
    const failed = await fromIncoming(failing, () => failing.emit("error", new Error("boom")));
    expect(failed).toEqual({ status: 500, json: { unexpected: "Error: boom" } });
    const leaving = new Incoming();
    const left = await fromIncoming(leaving, () => {
      leaving.emit("data", Buffer.from("{"));
      leaving.emit("close");
    });
    expect(left).toEqual({
      status: 500,
      json: { unexpected: "Error: the client closed the connection mid-body" },
    });
  });

  it("closed once complete is no failure: the body's end answers", async () => {
    const incoming = new Incoming();
    const r = await fromIncoming(incoming, () => {
      incoming.emit("data", Buffer.from("[1]"));
      incoming.complete = true;
      incoming.emit("close");
      incoming.emit("end");
    });
    expect(r).toEqual({ status: 200, json: { body: [1] } });
  });

  it("a request something has read already is read as a web stream", async () => {
    const incoming = new Incoming();
    incoming.readableDidRead = true;
    const r = await fromIncoming(incoming, () => {}, { body: "[2]" });
    expect(r).toEqual({ status: 200, json: { body: [2] } });
  });
});
