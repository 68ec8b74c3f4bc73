/**
 * Leaving the run view while its run goes on (docs/dev.md "A run already going"): the run's stream
 * closes — the run goes on at the server — and nothing the view still hears moves the page back.
 * Both were seen: a started run's stream stayed open after the view was left (one of the six
 * connections a browser has to a server, each), and in CI a run's first event, come after the
 * hash had changed and before the page handled its `hashchange`, put the run view's URL back — the
 * page stayed on the run view (the threads view's "Delete thread" test waited 30 s for a button).
 * The server is real and in this process; its `gated` graph waits until the test lets it go.
 */
import type { Client } from "@langchain/langgraph-sdk";
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/index.js";
import { PAGE_TESTS_SKIPPED } from "../support/browser.js";
import { gates, openGatesAfterEach } from "../support/gates.js";
import { type PageServer, startPageServer } from "../support/page-server.js";

let env: PageServer | undefined;
let server: RunningServer;
let page: Page;
let client: Client;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  env = await startPageServer("leave-run");
  ({ server, page, client } = env);
}, 60_000);
afterAll(() => env?.close());
openGatesAfterEach();

const RUN_STREAM = /\/threads\/[^/]+\/runs\/stream$/;
const isRunStream = (r: Request) => RUN_STREAM.test(new URL(r.url()).pathname);
const isStateRead = (r: Request) => /\/threads\/[^/]+\/state$/.test(new URL(r.url()).pathname);

/** The newest `gated` thread's state values, through the SDK. */
async function lastGatedValues() {
  const [thread] = await client.threads.search({
    metadata: { graph_id: "gated" },
    sortBy: "created_at",
    sortOrder: "desc",
    limit: 1,
  });
  return thread ? (await client.threads.getState(thread.thread_id)).values : undefined;
}

describe.skipIf(PAGE_TESTS_SKIPPED)("leaving the run view while its run goes on", () => {
  it("closes the run's stream, and the run goes on to its end", async () => {
    await page.goto(`${server.url}/#/graphs/gated/run`);
    await page.getByRole("button", { name: "Start run" }).click();
    await expect.poll(() => gates().length).toBe(1);

    const closed = page.waitForEvent("requestfailed", { predicate: isRunStream, timeout: 10_000 });
    await page.goto(`${server.url}/#/threads`);
    await page.getByRole("table", { name: "Threads" }).waitFor();
    await closed;

    gates().shift()!();
    await expect.poll(lastGatedValues).toEqual({ done: true });
  });

  it("stays where the person went when the run's first event comes after they left", async () => {
    // Listeners on `window` run in the order they were added: this one, before the page's router,
    // holds `hashchange` while `held` is set.
    await page.addInitScript(`addEventListener("hashchange", (e) => {
      if (window.held) e.stopImmediatePropagation();
    });`);
    await page.goto("about:blank");
    await page.goto(`${server.url}/#/graphs/gated/run`);
    // The run's request waits until the hash has changed; the page's `hashchange` is held until the
    // run has ended: the view is still there, hearing the run, with the URL already elsewhere.
    let release!: () => void;
    const sent = new Promise<void>((resolve) => {
      void page.route(
        (url) => RUN_STREAM.test(url.pathname),
        async (route) => {
          resolve();
          await new Promise<void>((go) => {
            release = go;
          });
          await route.continue();
        },
      );
    });
    await page.getByRole("button", { name: "Start run" }).click();
    await sent;
    await page.evaluate(`window.held = true; location.hash = "#/threads";`);
    const ended = page.waitForRequest(isStateRead);
    release();
    await expect.poll(() => gates().length).toBe(1);
    gates().shift()!();
    await ended;
    await page.unrouteAll();

    expect(new URL(page.url()).hash).toBe("#/threads");
    await page.evaluate(`window.held = false; dispatchEvent(new HashChangeEvent("hashchange"));`);
    await page.getByRole("table", { name: "Threads" }).waitFor();
    expect(new URL(page.url()).hash).toBe("#/threads");
    await expect.poll(lastGatedValues).toEqual({ done: true });
  });
});
