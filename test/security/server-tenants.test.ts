/**
 * Tenants and bad requests against the real server: another tenant's thread is 404 everywhere,
 * prefix deletion stays in the tenant, no header skips auth, and malformed, oversized, unknown or
 * ill-typed requests get a 4xx JSON body while the server stays up.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../server/harness.js";

const KEY_A = "key-of-tenant-a-0123456789";
const KEY_B = "key-of-tenant-b-0123456789";
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    apiKeys: { [KEY_A]: "tenant-a", [KEY_B]: "tenant-b" },
    maxBodyBytes: 64 * 1024,
  });
});
afterAll(async () => {
  await h?.stop();
});

const raw = (path: string, init: RequestInit & { key?: string } = {}) =>
  fetch(`${h.url}${path}`, {
    ...init,
    headers: {
      "content-type": "application/json",
      ...(init.key ? { "x-api-key": init.key } : {}),
      ...init.headers,
    },
  });

describe("tenants", () => {
  it("cannot see, read, run, search or delete each other's threads (404, not 403)", async () => {
    const a = h.client(KEY_A);
    const b = h.client(KEY_B);
    await a.threads.create({ threadId: "shared-name" });
    await a.runs.wait("shared-name", "three-steps", { input: {} });
    await expect(b.threads.get("shared-name")).rejects.toThrow(/404/);
    await expect(b.threads.getState("shared-name")).rejects.toThrow(/404/);
    await expect(b.threads.getHistory("shared-name")).rejects.toThrow(/404/);
    await expect(b.runs.list("shared-name")).rejects.toThrow(/404/);
    await expect(b.runs.wait("shared-name", "three-steps", { input: {} })).rejects.toThrow(/404/);
    await expect(b.threads.delete("shared-name")).rejects.toThrow(/404/);
    expect((await b.threads.search({ limit: 100 })).map((t) => t.thread_id)).not.toContain(
      "shared-name",
    );
    // The same id is a different thread for b.
    await b.threads.create({ threadId: "shared-name" });
    expect((await b.threads.getState("shared-name")).values).toEqual({});
    expect((await a.threads.getState("shared-name")).values).toMatchObject({ n: 3 });
  });

  it("a run's events name the client's thread id, never the stored one", async () => {
    const a = h.client(KEY_A);
    await a.threads.create({ threadId: "events-name" });
    const events: unknown[] = [];
    for await (const e of a.runs.stream("events-name", "three-steps", {
      input: {},
      streamMode: ["debug", "checkpoints", "tasks", "values"],
    }))
      events.push(e);
    const text = JSON.stringify(events);
    // The stored id is the tenant's scope in front of the client's (tenancy.ts).
    expect(text).not.toContain("tenant-a/events-name");
    expect(text).toContain('"thread_id":"events-name"');
    // And the events kept for joinStream, read back from the start, are the same.
    const [run] = await a.runs.list("events-name");
    const again: unknown[] = [];
    for await (const e of a.runs.joinStream("events-name", run!.run_id)) again.push(e);
    expect(JSON.stringify(again)).not.toContain("tenant-a/events-name");
    expect(JSON.stringify(again)).toContain('"thread_id":"events-name"');
  });

  it("prefix deletion stays within the tenant", async () => {
    const a = h.client(KEY_A);
    const b = h.client(KEY_B);
    for (const c of [a, b]) {
      await c.threads.create({ threadId: "acct-1/t1" });
      // The SDK (1.15) sends a thread id as one encoded path segment: `acct-1%2Ft1`.
      await c.runs.wait("acct-1/t1", "three-steps", { input: {} });
    }
    const res = await raw("/threads/prune", {
      method: "POST",
      key: KEY_B,
      body: JSON.stringify({ prefix: "acct-1" }),
    });
    expect(await res.json()).toEqual({ deleted: ["acct-1/t1"] });
    expect((await a.threads.getState("acct-1/t1")).values).toMatchObject({ n: 3 });
  });

  it("refuses requests without a valid key, whatever else they carry", async () => {
    for (const headers of <Record<string, string>[]>[
      {},
      { "x-auth-scheme": "langsmith" },
      { "x-api-key": "wrong-key-0123456789" },
      { authorization: `Bearer ${KEY_A}` },
    ]) {
      const res = await raw("/threads/search", { method: "POST", body: "{}", headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: "unauthorized" });
    }
    expect((await raw("/ok")).status).toBe(200);
  });
});

describe("bad requests", () => {
  it("malformed JSON, unknown assistant, input that fails the schema, unknown stream mode, oversize body: 4xx with a clear body", async () => {
    await h.client(KEY_A).threads.create({ threadId: "bad" });
    const cases: [string, string, number, string][] = [
      ["/threads/bad/runs/wait", "{not json", 400, "invalid-json"],
      [
        "/threads/bad/runs/wait",
        JSON.stringify({ assistant_id: "nope", input: {} }),
        404,
        "assistant-not-found",
      ],
      [
        "/threads/bad/runs/wait",
        JSON.stringify({ assistant_id: "approval", input: { draft: 5 } }),
        422,
        "invalid-input",
      ],
      [
        "/threads/bad/runs/wait",
        JSON.stringify({ assistant_id: "approval", input: { nope: 1 } }),
        422,
        "invalid-input",
      ],
      [
        "/threads/bad/runs/stream",
        JSON.stringify({ assistant_id: "approval", input: {}, stream_mode: ["values", "bogus"] }),
        422,
        "invalid-stream-mode",
      ],
      [
        "/threads/bad/runs",
        JSON.stringify({ assistant_id: "approval", input: "text" }),
        422,
        "invalid-request",
      ],
      [
        "/threads/bad/runs/wait",
        JSON.stringify({ assistant_id: "approval", input: { draft: "x".repeat(70_000) } }),
        413,
        "body-too-large",
      ],
    ];
    for (const [path, body, status, code] of cases) {
      const res = await raw(path, { method: "POST", key: KEY_A, body });
      expect(res.status, `${code}`).toBe(status);
      const json = (await res.json()) as Record<string, unknown>;
      expect(json.error).toBe(code);
      expect(typeof json.message).toBe("string");
    }
    expect((await raw("/ok")).status).toBe(200);
  });

  it("fuzzed bodies never get a 5xx, and the server stays up", async () => {
    const paths = [
      "/threads",
      "/threads/search",
      "/threads/f/runs/wait",
      "/threads/f/state",
      "/threads/f/history",
      "/assistants/search",
      "/runs/stream",
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.jsonValue().map((v) =>
            JSON.stringify({
              assistant_id: "approval",
              input: v,
              stream_mode: v,
              command: v,
              metadata: v,
            }),
          ),
        ),
        async (path, body) => {
          const res = await raw(path, { method: "POST", key: KEY_A, body });
          await res.text();
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 150 },
    );
    expect((await raw("/ok")).status).toBe(200);
  });
});
