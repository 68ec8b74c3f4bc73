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

describe("LangGraph Studio and --allow-origin pages (issue 30)", () => {
  const STUDIO = "https://smith.langchain.com";
  const list = (h: string | string[] | undefined) =>
    String(h ?? "")
      .split(",")
      .map((v) => v.trim().toLowerCase());

  it("Studio's preflight, as Chrome sends it to a server on this machine, is answered by default", async () => {
    const r = await send(dev.url, "OPTIONS", "/threads/search", {
      origin: STUDIO,
      host: `127.0.0.1:${port}`,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type,x-auth-scheme",
      "access-control-request-private-network": "true",
    });
    expect(r.status).toBe(204);
    expect(r.headers["access-control-allow-origin"]).toBe(STUDIO);
    expect(r.headers["access-control-allow-credentials"]).toBe("true");
    expect(r.headers["access-control-allow-private-network"]).toBe("true");
    expect(list(r.headers["access-control-allow-headers"])).toEqual(
      expect.arrayContaining(["content-type", "x-auth-scheme"]),
    );
    expect(list(r.headers["access-control-allow-methods"])).toEqual(
      expect.arrayContaining(["post", "patch", "delete"]),
    );
    expect(list(r.headers.vary)).toContain("origin");
  });

  it("Studio's requests get its origin, credentials and the headers the SDK reads", async () => {
    const r = await send(
      dev.url,
      "POST",
      "/assistants/search",
      { origin: STUDIO, host: `127.0.0.1:${port}`, "content-type": "application/json" },
      JSON.stringify({ limit: 1 }),
    );
    expect(r.status).toBe(200);
    expect(r.headers["access-control-allow-origin"]).toBe(STUDIO);
    expect(r.headers["access-control-allow-credentials"]).toBe("true");
    expect(list(r.headers["access-control-expose-headers"])).toEqual(
      expect.arrayContaining(["content-location", "location", "x-pagination-next"]),
    );
    expect(r.headers["x-pagination-total"]).toBe("1");
    expect(list(r.headers.vary)).toContain("origin");
  });

  it("another origin's preflight is refused with no CORS answer, Private Network Access included", async () => {
    const r = await send(dev.url, "OPTIONS", "/threads", {
      origin: "https://evil.example.test",
      host: `127.0.0.1:${port}`,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
      "access-control-request-private-network": "true",
    });
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body)).toMatchObject({ error: "origin-not-allowed" });
    for (const h of [
      "access-control-allow-origin",
      "access-control-allow-credentials",
      "access-control-allow-private-network",
      "access-control-allow-methods",
    ])
      expect(r.headers[h]).toBeUndefined();
    expect(list(r.headers.vary)).toContain("origin");
  });

  it("another origin's simple POST with no body (no preflight, no content type) changes nothing", async () => {
    const before = await threadIds();
    const r = await send(dev.url, "POST", "/threads", {
      origin: "https://evil.example.test",
      host: `127.0.0.1:${port}`,
    });
    expect(r.status).toBe(403);
    expect(r.headers["access-control-allow-origin"]).toBeUndefined();
    expect(await threadIds()).toEqual(before);
  });

  it("answers without an Origin vary by it too (a cache keeps them apart)", async () => {
    const r = await send(dev.url, "GET", "/ok", { host: `127.0.0.1:${port}` });
    expect(r.status).toBe(200);
    expect(list(r.headers.vary)).toContain("origin");
    expect(r.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("dev prints Studio's link beside its URL; --studio-url moves both the link and the origin allowed", async () => {
    const eu = "https://eu.smith.langchain.com";
    const other = await startDevServer({
      files: { "graphs/hello.yaml": SPEC },
      args: ["--studio-url", eu],
    });
    try {
      const otherPort = new URL(other.url).port;
      const preflight = (origin: string) =>
        send(other.url, "OPTIONS", "/threads/search", {
          origin,
          host: `127.0.0.1:${otherPort}`,
          "access-control-request-method": "POST",
        });
      expect((await preflight(eu)).headers["access-control-allow-origin"]).toBe(eu);
      expect((await preflight(STUDIO)).status).toBe(403);
      expect(other.stdout()).toBe(
        `${other.url}\nLangGraph Studio: ${eu}/studio?baseUrl=${other.url}\n`,
      );
    } finally {
      await other.stop();
    }
    expect(dev.stdout()).toBe(
      `${dev.url}\nLangGraph Studio: ${STUDIO}/studio?baseUrl=${dev.url}\n`,
    );
  });

  it("--studio-url none: no link, and Studio's pages are refused like any other", async () => {
    const closed = await startDevServer({
      files: { "graphs/hello.yaml": SPEC },
      args: ["--studio-url", "none"],
    });
    try {
      const r = await send(closed.url, "OPTIONS", "/threads/search", {
        origin: STUDIO,
        host: `127.0.0.1:${new URL(closed.url).port}`,
        "access-control-request-method": "POST",
      });
      expect(r.status).toBe(403);
      expect(r.headers["access-control-allow-origin"]).toBeUndefined();
      expect(closed.stdout()).toBe(`${closed.url}\n`);
    } finally {
      await closed.stop();
    }
  });

  it("a bad --studio-url is a usage error; serve takes none", () => {
    const bad = spawnSync(process.execPath, [BIN, "dev", "--studio-url", "smith.langchain.com"], {
      encoding: "utf8",
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--studio-url");
    const serve = spawnSync(process.execPath, [BIN, "serve", "--no-auth", "--studio-url", STUDIO], {
      encoding: "utf8",
    });
    expect(serve.status).toBe(2);
    expect(serve.stderr).toContain("--studio-url is for `graphspec dev`");
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
