/**
 * A React app on another origin, written as LangGraph's docs write one — the official SDK's
 * `useStream` hook (`@langchain/langgraph-sdk/react`, React 19) — against graphspec's server, in
 * headless Chromium: the way most people put a chat in front of a LangGraph server.
 * The server is real and in this process, allowing the app's origin (`allowOrigins`, `serve
 * --allow-origin`); the app (test/fixtures/use-stream/app.mjs) is bundled with esbuild and served
 * from a port of its own, as a dev server (Vite's) serves one. Served by the browser's request
 * routing instead, the app's origin has no address, and Chromium's Local Network Access refuses
 * its requests to a loopback server.
 *
 * - The repository's ticket-agent (an agent with tools, and a person's approval before it writes
 *   to a customer): the conversation streams in, the approval arrives as the hook's `interrupt`
 *   (LangChain's human-in-the-loop request), a `Command({ resume })` through `submit` finishes
 *   it, and the hook's messages are the thread's, with no system prompt among them.
 * - Stop (`stream.stop()`): the hook sends `on_disconnect: "cancel"` unless its stream is
 *   resumable, so the run is cancelled at the server and the thread takes the next message.
 * - `reconnectOnMount`: a page loaded again while its run goes on joins the run (the run was sent
 *   resumable, so leaving did not cancel it) and ends with it.
 * - Branching as agent-chat-ui does it (`fetchStateHistory`): a question edited and an answer
 *   regenerated from the checkpoint before each (`getMessagesMetadata(…).firstSeenState
 *   .parent_checkpoint`), then the branches switched between (`branchOptions`, `setBranch`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, type RunningServer, startServer } from "../../src/index.js";
import { GRAPHS as SERVER_GRAPHS } from "../server/harness.js";
import {
  launchBrowser,
  openPage,
  PAGE_TESTS_SKIPPED,
  type PageSession,
} from "../support/browser.js";
import { gates, openGatesAfterEach } from "../support/gates.js";

const ROOT = join(import.meta.dirname, "../..");
const USER = "u-7";
/** A plain chat: one model answering the conversation. */
const CHAT = `version: 1
name: chat
state:
  messages: { type: messages }
models:
  default: { model: "scripted:chat" }
nodes:
  answer: { kind: llm, system: Answer briefly. }
edges:
  - { from: START, to: answer }
  - { from: answer, to: END }
`;

let dir: string;
let agents: RunningServer;
let gated: RunningServer;
let chats: RunningServer;
let browser: Browser;
let appServer: Server;
let appOrigin: string;

/** A server over `graphs`, letting the app's origin in. */
async function serverOver(graphs: string, name: string, scripts?: Record<string, unknown[]>) {
  return startServer({
    exec: createExecutor({
      dir: graphs,
      checkpointer: "sqlite",
      sqlitePath: join(dir, `${name}.db`),
      ...(scripts ? { scripts: scripts as never } : {}),
    }),
    graphs: await folderCatalog(graphs),
    port: 0,
    allowOrigins: [appOrigin],
    auth: undefined,
  });
}

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  dir = mkdtempSync(join(tmpdir(), "graphspec-use-stream-"));
  const bundle = await build({
    entryPoints: [join(ROOT, "test/fixtures/use-stream/app.mjs")],
    bundle: true,
    format: "esm",
    write: false,
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  });
  const app = bundle.outputFiles[0]!.text;
  appServer = createServer((req, res) => {
    if (req.url === "/app.js") res.writeHead(200, { "content-type": "text/javascript" }).end(app);
    else if (req.url === "/favicon.ico") res.writeHead(204).end();
    else
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(
          '<!doctype html><title>chat</title><div id="root"></div><script type="module" src="/app.js"></script>',
        );
  });
  await new Promise<void>((resolve) => appServer.listen(0, "127.0.0.1", resolve));
  appOrigin = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`;
  agents = await serverOver(join(ROOT, "graphs"), "agents", {
    "ticket-agent": [
      { tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1001" } }] },
      { tool_calls: [{ name: "notify_customer", args: { message: "We are on it." } }] },
      { text: "I told the customer." },
    ],
  });
  gated = await serverOver(SERVER_GRAPHS, "gated");
  mkdirSync(join(dir, "chat"));
  writeFileSync(join(dir, "chat/chat.yaml"), CHAT);
  chats = await serverOver(join(dir, "chat"), "chat", {
    chat: [{ text: "First answer." }, { text: "Second answer." }],
  });
  browser = await launchBrowser();
}, 60_000);
openGatesAfterEach();
afterAll(async () => {
  await browser?.close();
  await agents?.close(1000);
  await gated?.close(1000);
  await chats?.close(1000);
  appServer?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The app in a new page, on `server`'s `assistant`; `more`: the app's other URL parameters. */
async function openApp(
  server: RunningServer,
  assistant: string,
  more: Record<string, string> = {},
): Promise<PageSession> {
  const session = await openPage(browser, `use-stream-${assistant}`);
  const query = new URLSearchParams({ api: server.url, assistant, ...more });
  await session.page.goto(`${appOrigin}/?${query}`);
  await session.page.waitForFunction("window.lg !== undefined");
  return session;
}

interface Seen {
  isLoading: boolean;
  error: string | undefined;
  errors: string[];
  threadId: string | undefined;
  interrupt: unknown;
  messages: { type: string; content: unknown; tool_calls?: { name: string; args: unknown }[] }[];
  values: Record<string, unknown>;
}

/** What the hook holds now. */
const seen = (page: Page): Promise<Seen> =>
  page.evaluate(`({
    isLoading: window.lg.isLoading,
    error: window.lg.error === undefined ? undefined : String(window.lg.error?.message ?? window.lg.error),
    errors: window.errors,
    threadId: window.threadId,
    interrupt: window.lg.interrupt?.value,
    messages: JSON.parse(JSON.stringify(window.lg.messages)),
    values: JSON.parse(JSON.stringify(window.lg.values ?? {})),
  })`) as Promise<Seen>;

/** Waits until the hook's run has ended (`submit` itself resolves once it has, in the page). */
async function settled(page: Page): Promise<Seen> {
  await expect.poll(async () => (await seen(page)).isLoading, { timeout: 20_000 }).toBe(false);
  return seen(page);
}

describe.skipIf(PAGE_TESTS_SKIPPED)(
  "useStream (the SDK's React hook) on graphspec's server",
  () => {
    it("streams an agent's conversation, asks for approval, and finishes once approved", async () => {
      const s = await openApp(agents, "ticket-agent");
      const { page } = s;
      await page.evaluate(`window.lg.submit(
      { messages: [{ type: "human", content: "What is up with T-1001?" }] },
      { context: { user_id: "${USER}" } },
    )`);
      const asked = await settled(page);
      expect(asked.error).toBeUndefined();
      expect(asked.errors).toEqual([]);
      expect(asked.interrupt).toMatchObject({
        actionRequests: [{ name: "notify_customer", args: { message: "We are on it." } }],
      });
      expect(asked.messages.map((m) => m.type)).toEqual(["human", "ai", "tool", "ai"]);
      expect(asked.messages[3]!.tool_calls).toMatchObject([
        { name: "notify_customer", args: { message: "We are on it." } },
      ]);

      await page.evaluate(`window.lg.submit(undefined, {
      command: { resume: { decisions: [{ type: "approve" }] } },
      context: { user_id: "${USER}" },
    })`);
      const done = await settled(page);
      expect(done.error).toBeUndefined();
      expect(done.interrupt).toBeUndefined();
      expect(done.messages.map((m) => m.type)).toEqual(["human", "ai", "tool", "ai", "tool", "ai"]);
      expect(done.messages.at(-2)!.content).toBe(`sent to ${USER}: We are on it.`);
      expect(done.messages.at(-1)!.content).toBe("I told the customer.");
      // What the page shows is the thread's, as the server keeps it: no system prompt streamed in.
      const list = page.getByRole("list", { name: "Messages" }).getByRole("listitem");
      await expect.poll(() => list.count()).toBe(6);
      expect(await list.last().innerText()).toBe("I told the customer.");
      const state = await new Client({ apiUrl: agents.url }).threads.getState<{
        messages: { type: string; content: unknown }[];
      }>(done.threadId!);
      expect(state.values.messages.map((m) => [m.type, m.content])).toEqual(
        done.messages.map((m) => [m.type, m.content]),
      );
      s.expectClean();
      await s.close();
    });

    it("Stop cancels the run at the server, and the thread takes the next message", async () => {
      const s = await openApp(gated, "gated");
      const { page } = s;
      const client = new Client({ apiUrl: gated.url });
      await page.evaluate("void window.lg.submit({})");
      await expect.poll(() => gates().length).toBe(1);
      const { threadId } = await seen(page);
      const [run] = await client.runs.list(threadId!);
      await page.evaluate("window.lg.stop()");
      await expect
        .poll(async () => (await client.runs.get(threadId!, run!.run_id)).status)
        .toBe("interrupted");
      expect((await client.threads.get(threadId!)).status).not.toBe("busy");
      // The cancelled run's node still waits at its gate: opening it changes nothing.
      gates().shift()!();

      await page.evaluate("void window.lg.submit({})");
      await expect.poll(() => gates().length).toBe(1);
      gates().shift()!();
      const next = await settled(page);
      expect(next.error).toBeUndefined();
      expect(next.values).toEqual({ done: true });
      expect(next.threadId).toBe(threadId);
      await s.close();
    });

    it("reconnectOnMount: a page loaded again during its run joins it and sees it end", async () => {
      const client = new Client({ apiUrl: gated.url });
      const s = await openApp(gated, "gated", { reconnect: "1" });
      const { page } = s;
      await page.evaluate("void window.lg.submit({}, { streamResumable: true })");
      await expect.poll(() => gates().length).toBe(1);
      const { threadId } = await seen(page);
      const [run] = await client.runs.list(threadId!);

      // Loaded again in the same tab (the hook keeps the run's id in the tab's sessionStorage),
      // the thread in the URL as an app keeps it: the page that left did not cancel the run.
      const url = new URL(page.url());
      url.searchParams.set("thread", threadId!);
      await page.goto(url.href);
      await page.waitForFunction("window.lg !== undefined");
      expect((await client.runs.get(threadId!, run!.run_id)).status).toBe("running");
      await expect.poll(async () => (await seen(page)).isLoading).toBe(true);
      gates().shift()!();
      const ended = await settled(page);
      expect(ended.error).toBeUndefined();
      expect(ended.values).toEqual({ done: true });
      expect((await client.runs.get(threadId!, run!.run_id)).status).toBe("success");
      await s.close();
    });

    it("edits a message and regenerates an answer as new branches, and switches between them", async () => {
      const s = await openApp(chats, "chat", { history: "1" });
      const { page } = s;
      const said = async () => (await seen(page)).messages.map((m) => [m.type, m.content]);
      /** Submits from the checkpoint before `messages[i]` first appeared, as agent-chat-ui does. */
      const fromBefore = (i: number, input: string) =>
        page.evaluate(`(async () => {
          const meta = window.lg.getMessagesMetadata(window.lg.messages[${i}]);
          await window.lg.submit(${input}, { checkpoint: meta.firstSeenState.parent_checkpoint });
        })()`);
      const branches = (i: number) =>
        page.evaluate(
          `window.lg.getMessagesMetadata(window.lg.messages[${i}])?.branchOptions?.length ?? 0`,
        );

      await page.evaluate(`window.lg.submit({ messages: [{ type: "human", content: "Hi" }] })`);
      await settled(page);
      expect(await said()).toEqual([
        ["human", "Hi"],
        ["ai", "First answer."],
      ]);

      // "Edit": the question asked again differently, from before it — a second branch.
      await fromBefore(0, `{ messages: [{ type: "human", content: "Hello" }] }`);
      expect((await settled(page)).error).toBeUndefined();
      expect(await said()).toEqual([
        ["human", "Hello"],
        ["ai", "First answer."],
      ]);
      await expect.poll(() => branches(0)).toBe(2);

      // "Regenerate": the answer run again from before it (a scripted model answers a run from a
      // checkpoint as it answered there first: scripts keep their place with the checkpoint).
      await fromBefore(1, "undefined");
      expect((await settled(page)).error).toBeUndefined();
      await expect.poll(() => branches(1)).toBe(2);
      expect(await said()).toEqual([
        ["human", "Hello"],
        ["ai", "First answer."],
      ]);

      // The branch switcher: back to the first question.
      await page.evaluate(`(() => {
        const meta = window.lg.getMessagesMetadata(window.lg.messages[0]);
        window.lg.setBranch(meta.branchOptions.find((b) => b !== meta.branch));
      })()`);
      await expect.poll(said).toEqual([
        ["human", "Hi"],
        ["ai", "First answer."],
      ]);
      s.expectClean();
      await s.close();
    });
  },
);
