/**
 * What graphspec dev's page costs on the wire (issue 26, item 5), in headless Chromium against
 * the built CLI: its files arrive compressed, a repeat load is one 304 (the script and stylesheet
 * come from the browser's cache), an idle tab makes no request at all besides its one stream of
 * events, and a refused save, a fix, a new thread and a run's progress reach the page through
 * that stream — each followed only by the read of what changed.
 */
import { Client } from "@langchain/langgraph-sdk";
import type { Browser, CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  openPage,
  PAGE_TESTS_SKIPPED,
  type PageSession,
  seriousAxeViolations,
} from "../support/browser.js";
import { type DevServer, startDevServer } from "../support/dev-server.js";

const SPEC = `version: 1
name: three-steps
description: Three set nodes in a row.
state:
  n: { type: integer, reducer: sum, default: 0 }
nodes:
  one: { kind: set, values: { n: 1 } }
  two: { kind: set, values: { n: 1 } }
  three: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: one }
  - { from: one, to: two }
  - { from: two, to: three }
  - { from: three, to: END }
`;

let server: DevServer;
let browser: Browser;
const sessions: PageSession[] = [];

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  browser = await launchBrowser();
  server = await startDevServer({ files: { "graphs/three-steps.yaml": SPEC } });
}, 60_000);
afterAll(async () => {
  for (const s of sessions) await s.close();
  await browser?.close();
  await server?.stop();
});

/** What the network (not the cache) answered, per URL path, from the DevTools protocol. */
interface Wire {
  url: string;
  status: number;
  encoding: string | undefined;
  /** Served from the browser's memory or disk cache: nothing went over the network. */
  cached: boolean;
}

async function wireOf(page: Page): Promise<{ cdp: CDPSession; wire: Wire[] }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const wire: Wire[] = [];
  const fromMemory = new Set<string>();
  // The status as it came over the wire: a revalidated response is reported as the cached 200.
  const raw = new Map<string, number>();
  cdp.on("Network.responseReceivedExtraInfo", (e) => raw.set(e.requestId, e.statusCode));
  cdp.on("Network.requestServedFromCache", (e) => fromMemory.add(e.requestId));
  cdp.on("Network.responseReceived", (e) => {
    const headers = Object.fromEntries(
      Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    wire.push({
      url: new URL(e.response.url).pathname,
      get status() {
        return raw.get(e.requestId) ?? e.response.status;
      },
      encoding: headers["content-encoding"],
      cached: Boolean(e.response.fromDiskCache) || fromMemory.has(e.requestId),
    });
  });
  return { cdp, wire };
}

/** The page loaded, its stream open, and the read its stream's first `hello` asks for answered. */
async function settled(s: PageSession): Promise<void> {
  await s.page.getByRole("navigation", { name: "Graphs" }).getByRole("link").first().waitFor();
  await expect
    .poll(() => s.requests.filter((u) => u.endsWith("/assistants/search")).length)
    .toBeGreaterThanOrEqual(2);
  await expect.poll(() => s.requests.some((u) => u.endsWith("/ui/events"))).toBe(true);
}

/** The graph's view asked for its drawing and schemas (once: they change only with a new version). */
async function drawn(s: PageSession): Promise<void> {
  await expect.poll(() => s.requests.some((u) => u.endsWith("/graph"))).toBe(true);
  await expect.poll(() => s.requests.some((u) => u.endsWith("/schemas"))).toBe(true);
}

const pathsOf = (urls: string[]) => urls.map((u) => new URL(u).pathname);

describe.skipIf(PAGE_TESTS_SKIPPED)("the page's traffic", () => {
  it("sends its files compressed; a repeat load is one 304, the script and stylesheet cached", async () => {
    const s = await openPage(browser, "push-cache");
    sessions.push(s);
    const { wire } = await wireOf(s.page);
    await s.page.goto(`${server.url}/`);
    await settled(s);
    const first = wire.filter((w) => w.url === "/" || w.url.startsWith("/ui/"));
    const html = first.find((w) => w.url === "/");
    const script = first.find((w) => /^\/ui\/main-\w+\.js$/.test(w.url));
    const style = first.find((w) => /^\/ui\/style-\w+\.css$/.test(w.url));
    expect([html?.status, script?.status, style?.status]).toEqual([200, 200, 200]);
    // Chromium takes brotli: each file as built (scripts/build-web.mjs).
    expect([html?.encoding, script?.encoding, style?.encoding]).toEqual(["br", "br", "br"]);

    // A second visit in the same browser: the page asks whether index.html changed (304), and
    // takes the hashed files from its cache without asking.
    const again = await s.page.context().newPage();
    const { wire: repeat } = await wireOf(again);
    await again.goto(`${server.url}/`);
    await again.getByRole("navigation", { name: "Graphs" }).getByRole("link").first().waitFor();
    await expect.poll(() => repeat.find((w) => w.url === "/")?.status).toBe(304);
    const assets = repeat.filter((w) => w.url.startsWith("/ui/") && w.url !== "/ui/events");
    expect(assets.length).toBeGreaterThanOrEqual(2);
    expect(assets.filter((w) => !w.cached)).toEqual([]);
    await again.close();
    s.expectClean();
  });

  it("makes no request while idle but its one stream of events", async () => {
    const s = await openPage(browser, "push-idle");
    sessions.push(s);
    await s.page.goto(`${server.url}/#/graphs/three-steps`);
    await settled(s);
    await drawn(s);
    const mark = s.requests.length;
    // Polling every 500 ms (as the page did) would have asked 6 times by now.
    await s.page.waitForTimeout(3000);
    expect(s.requests.slice(mark)).toEqual([]);
    expect(s.requests.filter((u) => u.endsWith("/ui/events"))).toHaveLength(1);
    s.expectClean();
  });

  it("shows a refused save's diagnostics, then the fix, as the server says so", async () => {
    const s = await openPage(browser, "push-reload");
    sessions.push(s);
    await s.page.goto(`${server.url}/#/graphs/three-steps`);
    await settled(s);
    await drawn(s);
    const mark = s.requests.length;
    server.write("graphs/three-steps.yaml", SPEC.replace("to: END }", "to: ENDD }"));
    const diagnostics = s.page.getByRole("region", { name: "Diagnostics" });
    await diagnostics.getByText(/three-steps\.yaml:14:24/).waitFor();
    expect(await diagnostics.innerText()).toContain("ENDD");
    // The stream's nudge, then the one read of the list: nothing else.
    expect(new Set(pathsOf(s.requests.slice(mark)))).toEqual(new Set(["/assistants/search"]));
    expect(await seriousAxeViolations(s.page)).toEqual([]);

    server.write("graphs/three-steps.yaml", SPEC.replace("Three set nodes", "Fixed, three nodes"));
    await s.page.getByText("Fixed, three nodes in a row.").first().waitFor();
    await expect.poll(() => diagnostics.getByText("ENDD").count()).toBe(0);
    expect(s.requests.filter((u) => u.endsWith("/ui/events"))).toHaveLength(1);
    s.expectClean();
  });

  it("lists a new thread, and follows a run on a thread's page, as the server says so", async () => {
    const s = await openPage(browser, "push-threads");
    sessions.push(s);
    await s.page.goto(`${server.url}/#/threads`);
    await settled(s);
    await s.page
      .getByText(/No threads yet|Thread/)
      .first()
      .waitFor();
    const mark = s.requests.length;
    const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
    const thread = await client.threads.create();
    const table = s.page.getByRole("table", { name: "Threads" });
    await table.getByRole("link", { name: thread.thread_id }).waitFor();
    expect(new Set(pathsOf(s.requests.slice(mark)))).toEqual(new Set(["/threads/search"]));

    await s.page.goto(`${server.url}/#/threads/${thread.thread_id}`);
    const checkpoints = s.page.getByRole("list", { name: "Checkpoints" });
    await s.page
      .getByRole("heading", { name: /Thread/ })
      .first()
      .waitFor();
    await expect.poll(() => s.requests.some((u) => u.includes("/history"))).toBe(true);
    expect(await checkpoints.locator("li").count()).toBe(0);
    await client.runs.wait(thread.thread_id, "three-steps", { input: {} });
    await expect.poll(() => checkpoints.locator("li").count()).toBeGreaterThanOrEqual(4);
    expect(await seriousAxeViolations(s.page)).toEqual([]);
    expect(s.requests.filter((u) => u.endsWith("/ui/events"))).toHaveLength(1);
    s.expectClean();
  });
});
