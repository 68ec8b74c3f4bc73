/**
 * LangGraph Studio's side of `graphspec dev` (issue 30), in headless Chromium against the built
 * CLI. A page on another origin stands in for Studio's: it loads the official SDK (bundled for the
 * browser with esbuild) and, as Studio does, sends cookies along (`credentials: "include"`) and a
 * header of its own (`x-auth-scheme`). Allowed with --allow-origin, it drives dev: assistants,
 * threads, a streamed run to an interrupt, the interrupt answered. The same page on an origin not
 * allowed is refused, preflighted requests (the SDK's) and simple ones (a POST with no body) alike:
 * nothing it sends changes the server.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  openPage,
  PAGE_TESTS_SKIPPED,
  type PageSession,
} from "../support/browser.js";
import { type DevServer, startDevServer } from "../support/dev-server.js";

const ROOT = join(import.meta.dirname, "..", "..");

const APPROVAL = `version: 1
name: approval
description: Drafts a reply, asks a person, sends it when approved.
state:
  draft: { type: string, default: "" }
  approved: { type: boolean, default: false }
input: [draft]
nodes:
  ask:
    kind: interrupt
    payload: { question: "Send this reply?", draft: "\${{ state.draft }}" }
    schema: { type: boolean }
    write: { approved: "\${{ resume }}" }
  send:
    kind: set
    values: { draft: "\${{ state.draft + ' (sent)' }}" }
edges:
  - { from: START, to: ask }
  - from: ask
    route:
      - { when: state.approved, to: send }
      - { default: END }
  - { from: send, to: END }
`;

/** The SDK as a browser script: `window.LangGraphSDK.Client`. */
async function sdkBundle(): Promise<string> {
  const out = await build({
    stdin: {
      contents: 'export { Client, overrideFetchImplementation } from "@langchain/langgraph-sdk";',
      resolveDir: ROOT,
      loader: "js",
    },
    bundle: true,
    format: "iife",
    globalName: "LangGraphSDK",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "error",
  });
  return out.outputFiles[0]!.text;
}

/** Studio's stand-in: a page and the SDK's script, on 127.0.0.1 and localhost (two origins). */
async function studioStandIn(): Promise<Server> {
  const sdk = await sdkBundle();
  const server = createServer((req, res) => {
    if (req.url === "/sdk.js") {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(sdk);
    } else if (req.url === "/") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        '<!doctype html><html lang="en"><title>Studio stand-in</title><link rel="icon" href="data:,"><script src="/sdk.js"></script></html>',
      );
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return server;
}

let browser: Browser;
let pages: Server;
let pagePort: number;
let dev: DevServer;
let node: Client;
beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  pages = await studioStandIn();
  pagePort = (pages.address() as AddressInfo).port;
  // Allowed: the page at 127.0.0.1:<port>. Not allowed: the same page at localhost:<port>.
  dev = await startDevServer({
    files: { "graphs/approval.yaml": APPROVAL },
    args: ["--allow-origin", `http://127.0.0.1:${pagePort}`],
  });
  node = new Client({ apiUrl: dev.url, callerOptions: { maxRetries: 0 } });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await dev?.stop();
  await new Promise((r) => (pages ? pages.close(r) : r(undefined)));
});

/** The stand-in page at `origin`, its SDK set up as Studio's is. */
async function standIn(origin: string, name: string): Promise<PageSession> {
  const s = await openPage(browser, name);
  await s.page.goto(`${origin}/`);
  await s.page.evaluate(() => {
    const sdk = (
      globalThis as unknown as { LangGraphSDK: typeof import("@langchain/langgraph-sdk") }
    ).LangGraphSDK;
    // Studio sends cookies along: the server must allow credentials for its origin.
    sdk.overrideFetchImplementation((url, init) => fetch(url, { ...init, credentials: "include" }));
  });
  return s;
}

const threadIds = async () =>
  (await node.threads.search({ limit: 1000 })).map((t) => t.thread_id).sort();

describe.skipIf(PAGE_TESTS_SKIPPED)("a page on Studio's stand-in origin", () => {
  it("drives graphspec dev with the SDK: assistants, threads, a streamed run, an interrupt answered", async () => {
    const s = await standIn(`http://127.0.0.1:${pagePort}`, "studio-origin-allowed");
    try {
      const got = await s.page.evaluate(async (api) => {
        const { Client } = (
          globalThis as unknown as { LangGraphSDK: typeof import("@langchain/langgraph-sdk") }
        ).LangGraphSDK;
        const client = new Client({
          apiUrl: api,
          defaultHeaders: { "x-auth-scheme": "langsmith" },
          callerOptions: { maxRetries: 0 },
        });
        const info = await (await fetch(`${api}/info`, { credentials: "include" })).json();
        const page = await client.assistants.search({ limit: 1, includePagination: true });
        const assistant = page.assistants[0]!;
        const schemas = await client.assistants.getSchemas(assistant.assistant_id);
        const graph = await client.assistants.getGraph(assistant.assistant_id);
        const thread = await client.threads.create({ metadata: { from: "studio" } });
        let created: string | undefined;
        const streamed: string[] = [];
        let question: unknown;
        for await (const e of client.runs.stream(thread.thread_id, assistant.assistant_id, {
          input: { draft: "hello" },
          streamMode: ["values", "updates"],
          onRunCreated: (r) => {
            created = r.run_id;
          },
        })) {
          streamed.push(e.event);
          const interrupts = (e.data as { __interrupt__?: { value: unknown }[] })?.__interrupt__;
          if (interrupts) question = interrupts[0]!.value;
        }
        const paused = await client.threads.get(thread.thread_id);
        const resumed: string[] = [];
        for await (const e of client.runs.stream(thread.thread_id, assistant.assistant_id, {
          command: { resume: true },
          streamMode: "values",
        }))
          resumed.push(e.event);
        const state = await client.threads.getState(thread.thread_id);
        const history = await client.threads.getHistory(thread.thread_id, { limit: 20 });
        const runs = await client.runs.list(thread.thread_id);
        const found = await client.threads.search({ metadata: { from: "studio" } });
        return {
          info,
          graphId: assistant.graph_id,
          next: page.next,
          inputKeys: Object.keys(
            (schemas.input_schema as { properties: Record<string, unknown> }).properties,
          ),
          nodes: graph.nodes.map((n) => n.id),
          created,
          runIds: runs.map((r) => r.run_id),
          streamed,
          question,
          pausedStatus: paused.status,
          resumed,
          values: state.values,
          checkpoints: history.length,
          found: found.map((t) => t.thread_id),
          threadId: thread.thread_id,
        };
      }, dev.url);
      expect(got.info).toMatchObject({ flags: { assistants: true } });
      expect(got.graphId).toBe("approval");
      expect(got.next).toBeNull();
      expect(got.inputKeys).toEqual(["draft"]);
      expect(got.nodes).toEqual(expect.arrayContaining(["ask", "send"]));
      // From `Content-Location`, which the page can read only if it is exposed.
      expect(got.created).toBeDefined();
      expect(got.runIds).toContain(got.created);
      expect(got.streamed).toEqual(expect.arrayContaining(["metadata", "values", "updates"]));
      expect(got.question).toEqual({ question: "Send this reply?", draft: "hello" });
      expect(got.pausedStatus).toBe("interrupted");
      expect(got.resumed).toContain("values");
      expect(got.values).toEqual({ draft: "hello (sent)", approved: true });
      expect(got.checkpoints).toBeGreaterThan(2);
      expect(got.found).toEqual([got.threadId]);
      // What the page did is what a client outside the browser sees.
      expect((await node.threads.getState(got.threadId)).values).toEqual(got.values);
      s.expectClean();
    } finally {
      await s.close();
    }
  }, 120_000);

  it("on an origin not allowed, preflighted and simple requests alike are refused and change nothing", async () => {
    const s = await standIn(`http://localhost:${pagePort}`, "studio-origin-refused");
    try {
      const before = await threadIds();
      const got = await s.page.evaluate(async (api) => {
        const { Client } = (
          globalThis as unknown as { LangGraphSDK: typeof import("@langchain/langgraph-sdk") }
        ).LangGraphSDK;
        const client = new Client({ apiUrl: api, callerOptions: { maxRetries: 0 } });
        const refused = async (f: () => Promise<unknown>) => {
          try {
            await f();
            return "answered";
          } catch (e) {
            return (e as Error).name;
          }
        };
        return {
          // Preflighted: JSON bodies, the SDK's own requests.
          create: await refused(() => client.threads.create({ threadId: "from-refused" })),
          search: await refused(() => client.assistants.search()),
          run: await refused(() => client.runs.wait(null, "approval", { input: { draft: "x" } })),
          // Simple, no preflight: a GET, and a POST with no body (it would create a thread).
          read: await refused(() => fetch(`${api}/assistants/approval`)),
          blind: await refused(() => fetch(`${api}/threads`, { method: "POST", mode: "no-cors" })),
        };
      }, dev.url);
      // The SDK's ConnectionError wraps the browser's TypeError ("Failed to fetch").
      expect(got).toEqual({
        create: "ConnectionError",
        search: "ConnectionError",
        run: "ConnectionError",
        read: "TypeError",
        // An opaque answer: the browser sent it, and the server refused it (below).
        blind: "answered",
      });
      expect(await threadIds()).toEqual(before);
      // The browser said why: the server's answers carried no CORS headers.
      expect(s.problems.join("\n")).toMatch(/blocked by CORS policy/);
    } finally {
      await s.close();
    }
  }, 120_000);

  it("the same simple POST from the allowed origin does reach the server", async () => {
    const s = await standIn(`http://127.0.0.1:${pagePort}`, "studio-origin-simple");
    try {
      const before = await threadIds();
      await s.page.evaluate(async (api) => {
        await fetch(`${api}/threads`, { method: "POST", mode: "no-cors" });
      }, dev.url);
      expect((await threadIds()).length).toBe(before.length + 1);
    } finally {
      await s.close();
    }
  }, 120_000);
});
