/**
 * Browsers against `graphspec dev` (issue 23, items 6 and 7), with raw HTTP on 127.0.0.1 as a
 * browser would send it: a page of another local origin sent "simple" POSTs (`text/plain`, no
 * preflight) that ran a graph and pruned threads; a page of the attacker's own name rebound by
 * DNS to 127.0.0.1 (its requests carry `Host: attacker.example`) read and wrote everything. The
 * official SDK from Node (no Origin), and the page of the server's own origin, still work.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, startServer } from "../../src/index.js";
import { BIN, scratchDir } from "../support/cli.js";
import { type DevServer, startDevServer } from "../support/dev-server.js";

const SPEC = `version: 1
name: hello
state:
  n: { type: integer, reducer: sum, default: 0 }
nodes:
  one: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: one }
  - { from: one, to: END }
`;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request as a browser (or a rebound page) sends it: any Host and Origin. */
function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => {
        text += d;
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

let dev: DevServer;
let port: string;
let sdk: Client;
beforeAll(async () => {
  dev = await startDevServer({
    files: { "graphs/hello.yaml": SPEC },
    args: ["--allow-origin", "http://localhost:5173", "--allow-host", "dev.example.test"],
  });
  port = new URL(dev.url).port;
  sdk = new Client({ apiUrl: dev.url, callerOptions: { maxRetries: 0 } });
});
afterAll(() => dev?.stop());

const threadIds = async () =>
  (await sdk.threads.search({ limit: 100 })).map((t) => t.thread_id).sort();

describe("a page of another origin (cross-site simple POSTs)", () => {
  it("cannot run a graph or prune threads with text/plain bodies", async () => {
    const kept = await sdk.threads.create({ threadId: "kept-thread" });
    const before = await threadIds();
    const evil = { origin: "http://localhost:8080", "content-type": "text/plain;charset=UTF-8" };
    const run = await send(
      dev.url,
      "POST",
      "/runs/wait",
      { ...evil, host: `127.0.0.1:${port}` },
      JSON.stringify({ assistant_id: "hello", input: {}, on_completion: "keep" }),
    );
    expect(run.status).toBe(403);
    expect(JSON.parse(run.body)).toMatchObject({ error: "origin-not-allowed" });
    const prune = await send(
      dev.url,
      "POST",
      "/threads/prune",
      { ...evil, host: `127.0.0.1:${port}` },
      JSON.stringify({ prefix: "k" }),
    );
    expect(prune.status).toBe(403);
    expect(await threadIds()).toEqual(before);
    expect((await sdk.threads.get(kept.thread_id)).thread_id).toBe("kept-thread");
  });

  it("a page origin of `null` (a sandboxed frame, a file) is refused", async () => {
    const r = await send(
      dev.url,
      "POST",
      "/threads",
      {
        origin: "null",
        host: `127.0.0.1:${port}`,
        "content-type": "application/json",
      },
      "{}",
    );
    expect(r.status).toBe(403);
  });

  it("a body that is not JSON is refused without an Origin too (415)", async () => {
    const before = await threadIds();
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const r = await send(
        dev.url,
        "POST",
        "/threads/prune",
        { host: `127.0.0.1:${port}`, "content-type": type },
        JSON.stringify({ prefix: "k" }),
      );
      expect(r.status).toBe(415);
      expect(JSON.parse(r.body)).toMatchObject({ error: "unsupported-media-type" });
    }
    expect(await threadIds()).toEqual(before);
  });

  it("the server's own page (same origin) and an --allow-origin page are answered", async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const own = await send(
        dev.url,
        "POST",
        "/threads/search",
        { origin: `http://${host}`, host, "content-type": "application/json" },
        "{}",
      );
      expect(own.status).toBe(200);
    }
    const allowed = await send(
      dev.url,
      "POST",
      "/threads/search",
      {
        origin: "http://localhost:5173",
        host: `127.0.0.1:${port}`,
        "content-type": "application/json",
      },
      "{}",
    );
    expect(allowed.status).toBe(200);
    expect(allowed.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    const preflight = await send(dev.url, "OPTIONS", "/runs/wait", {
      origin: "http://localhost:5173",
      host: `127.0.0.1:${port}`,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
  });
});

describe("a page of the attacker's name rebound to 127.0.0.1 (DNS rebinding)", () => {
  it("is refused on the API and the page, whatever its Origin", async () => {
    const host = `attacker.example:${port}`;
    for (const [method, path, body] of [
      ["POST", "/threads/search", "{}"],
      ["GET", "/", undefined],
      ["GET", "/ok", undefined],
    ] as const) {
      const r = await send(
        dev.url,
        method,
        path,
        { host, origin: `http://${host}`, "content-type": "application/json" },
        body,
      );
      expect(r.status).toBe(403);
      expect(JSON.parse(r.body)).toMatchObject({ error: "host-not-allowed" });
      // Without an Origin too (a GET of the page's own address).
      const bare = await send(
        dev.url,
        method,
        path,
        { host, "content-type": "application/json" },
        body,
      );
      expect(bare.status).toBe(403);
    }
  });

  it("a name given with --allow-host is answered", async () => {
    const r = await send(dev.url, "GET", "/ok", { host: `dev.example.test:${port}` });
    expect(r.status).toBe(200);
  });
});

describe("clients outside a browser", () => {
  it("the official SDK from Node runs a graph and prunes as before", async () => {
    const t = await sdk.threads.create({ threadId: "sdk-thread" });
    const values = await sdk.runs.wait(t.thread_id, "hello", { input: {} });
    expect(values).toMatchObject({ n: 1 });
  });

  it("a bad --allow-origin is a usage error naming it", () => {
    const r = spawnSync(process.execPath, [BIN, "dev", "--allow-origin", "localhost:5173"], {
      encoding: "utf8",
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--allow-origin");
    expect(r.stderr).toContain("localhost:5173");
  });
});

describe("a server on a wildcard address (serve's default 0.0.0.0)", () => {
  const dir = scratchDir("server-origin");
  it("answers any Host unless --allow-host names them; Origin and JSON are checked all the same", async () => {
    mkdirSync(join(dir, "graphs"), { recursive: true });
    writeFileSync(join(dir, "package.json"), "{}");
    writeFileSync(join(dir, "graphs/hello.yaml"), SPEC);
    for (const allowHosts of [undefined, ["api.example.test"]]) {
      const server = await startServer({
        exec: createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory" }),
        graphs: await folderCatalog(join(dir, "graphs")),
        auth: undefined,
        host: "0.0.0.0",
        ...(allowHosts ? { allowHosts } : {}),
      });
      try {
        const url = `http://127.0.0.1:${server.port}`;
        const ok = (host: string) => send(url, "GET", "/ok", { host }).then((r) => r.status);
        expect(await ok(`api.example.test:${server.port}`)).toBe(200);
        expect(await ok(`other.example.test:${server.port}`)).toBe(allowHosts ? 403 : 200);
        const foreign = await send(
          url,
          "POST",
          "/threads",
          {
            host: `api.example.test:${server.port}`,
            origin: "http://evil.example.test",
            "content-type": "application/json",
          },
          "{}",
        );
        expect(foreign.status).toBe(403);
        const plain = await send(
          url,
          "POST",
          "/threads",
          {
            host: `127.0.0.1:${server.port}`,
            "content-type": "text/plain",
          },
          "{}",
        );
        expect(plain.status).toBe(415);
      } finally {
        await server.close(100);
      }
    }
  });
});
