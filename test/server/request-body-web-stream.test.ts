/**
 * `jsonBody` reading a web stream: what it does where no Node request is at hand (another runtime,
 * or a body something read before). graphspec's server always serves on Node with the request at
 * hand, so no public surface reaches this path: it is tested on its own, with a Hono app.
 */
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
