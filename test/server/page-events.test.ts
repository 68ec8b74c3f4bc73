/**
 * The page's stream of events (`GET /ui/events`, docs/dev.md "How the page stays current") over
 * HTTP against a real server from the package entry: open streams are capped per client and in
 * all (a 429 with `retry-after` past either, a slot freed when a stream closes), it needs the
 * API's key, a tenant hears of its own threads only, `Last-Event-ID` says whether anything was
 * missed, and `serve` without the page has no such endpoint.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createExecutor,
  folderCatalog,
  type RunningServer,
  serverAuth,
  startServer,
} from "../../src/index.js";
import { GRAPHS } from "./harness.js";

const KEY_A = "page-events-key-a-0123456789";
const KEY_B = "page-events-key-b-0123456789";
const dir = mkdtempSync(join(tmpdir(), "graphspec-page-events-"));
let server: RunningServer;

async function start(page: boolean, auth = true): Promise<RunningServer> {
  writeFileSync(join(dir, "keys.json"), JSON.stringify({ [KEY_A]: "a", [KEY_B]: "b" }));
  return startServer({
    exec: createExecutor({ dir: GRAPHS, checkpointer: "memory" }),
    graphs: await folderCatalog(GRAPHS),
    auth: auth ? await serverAuth({ apiKeys: join(dir, "keys.json") }) : undefined,
    port: 0,
    page,
    pageStreams: { total: 3, perClient: 2 },
  });
}

beforeAll(async () => {
  server = await start(true);
});
afterAll(async () => {
  await server?.close(1000);
  rmSync(dir, { recursive: true, force: true });
});

interface Stream {
  status: number;
  headers: Headers;
  /** The next event (comments skipped). */
  next(): Promise<{ event: string; data: unknown; id: string | undefined }>;
  close(): void;
}

async function open(key: string | undefined, lastId?: string, url = server.url): Promise<Stream> {
  const abort = new AbortController();
  const headers: Record<string, string> = {};
  if (key) headers["x-api-key"] = key;
  if (lastId) headers["last-event-id"] = lastId;
  const response = await fetch(`${url}/ui/events`, { headers, signal: abort.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    status: response.status,
    headers: response.headers,
    async next() {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of block.split("\n"))
            if (!line.startsWith(":")) {
              const at = line.indexOf(":");
              fields.set(line.slice(0, at), line.slice(at + 1).trim());
            }
          if (!fields.has("event")) continue;
          return {
            event: fields.get("event")!,
            data: JSON.parse(fields.get("data") ?? "null"),
            id: fields.get("id"),
          };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("the stream ended");
        buffer += value;
      }
    },
    close: () => abort.abort(),
  };
}

/** Opens until the server takes it: a closed stream's slot is free once the server saw it close. */
async function openOnceFree(key: string, lastId?: string, url = server.url): Promise<Stream> {
  for (;;) {
    const s = await open(key, lastId, url);
    if (s.status === 200) return s;
    s.close();
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("the page's stream of events", () => {
  it("caps open streams per client, then in all, with a 429 and retry-after", async () => {
    const a1 = await open(KEY_A);
    const a2 = await open(KEY_A);
    expect([a1.status, a2.status]).toEqual([200, 200]);
    const a3 = await open(KEY_A);
    expect(a3.status).toBe(429);
    expect(a3.headers.get("retry-after")).toBe("30");
    a3.close();
    // Another tenant is another client, up to the total of 3.
    const b1 = await open(KEY_B);
    expect(b1.status).toBe(200);
    const b2 = await open(KEY_B);
    expect(b2.status).toBe(429);
    b2.close();
    // A stream closed frees its slot.
    a1.close();
    const b3 = await openOnceFree(KEY_B);
    expect(b3.status).toBe(200);
    for (const s of [a2, b1, b3]) s.close();
  });

  it("refuses a request another site's page made (Sec-Fetch-Site)", async () => {
    for (const [site, status] of [
      ["cross-site", 403],
      ["same-site", 403],
      ["same-origin", 200],
    ] as const) {
      const response = await fetch(`${server.url}/ui/events`, {
        headers: { "x-api-key": KEY_A, "sec-fetch-site": site },
      });
      expect([site, response.status]).toEqual([site, status]);
      await response.body?.cancel();
    }
  });

  it("wants the API's key", async () => {
    const s = await open(undefined);
    expect(s.status).toBe(401);
    s.close();
  });

  it("tells a tenant of its own threads only", async () => {
    const a = await openOnceFree(KEY_A);
    const b = await openOnceFree(KEY_B);
    const hello = await a.next();
    expect(hello).toMatchObject({ event: "hello", data: { resync: true } });
    expect((await b.next()).event).toBe("hello");
    const clientA = new Client({ apiUrl: server.url, apiKey: KEY_A });
    const clientB = new Client({ apiUrl: server.url, apiKey: KEY_B });
    const mine = await clientA.threads.create();
    const theirs = await clientB.threads.create();
    // b's first thread event is its own: a's was not sent to it (events keep their order).
    expect(await b.next()).toMatchObject({
      event: "thread",
      data: { thread_id: theirs.thread_id },
    });
    const seen = await a.next();
    expect(seen).toMatchObject({ event: "thread", data: { thread_id: mine.thread_id } });
    b.close();
    // A run on a's thread: its start (and its steps and end, gathered) reach a.
    await clientA.runs.wait(mine.thread_id, "three-steps", { input: {} });
    expect(await a.next()).toMatchObject({ event: "thread", data: { thread_id: mine.thread_id } });
    a.close();
  });

  it("answers Last-Event-ID with whether events were missed", async () => {
    const fresh = await start(true);
    try {
      const first = await open(KEY_A, undefined, fresh.url);
      const hello = await first.next();
      // No id: a first connection reads everything.
      expect(hello).toMatchObject({ event: "hello", data: { resync: true } });
      const caughtUp = await open(KEY_A, hello.id, fresh.url);
      expect(await caughtUp.next()).toMatchObject({ event: "hello", data: { resync: false } });
      caughtUp.close();
      await new Client({ apiUrl: fresh.url, apiKey: KEY_A }).threads.create();
      const event = await first.next();
      expect(event.event).toBe("thread");
      expect(event.id).not.toBe(hello.id);
      first.close();
      const behind = await openOnceFree(KEY_A, hello.id, fresh.url);
      expect(await behind.next()).toMatchObject({ event: "hello", data: { resync: true } });
      behind.close();
      // An id from another run of the server (a restart): read everything.
      const other = await openOnceFree(KEY_A, "0000dead-0", fresh.url);
      expect(await other.next()).toMatchObject({ event: "hello", data: { resync: true } });
      other.close();
    } finally {
      await fresh.close(1000);
    }
  });

  it("is not served without the page (graphspec serve)", async () => {
    const plain = await start(false, false);
    try {
      const s = await open(undefined, undefined, plain.url);
      expect(s.status).toBe(404);
      s.close();
    } finally {
      await plain.close(1000);
    }
  });
});
