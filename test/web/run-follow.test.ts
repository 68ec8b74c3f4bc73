/**
 * The run view on a thread whose run is already going (a reload, a shared link, the threads view's
 * "Run from here"): it joins the run live (`runs.joinStream`) and shows it as a run started on the
 * page — status, nodes lighting up, its end. And a thread held by a static breakpoint: "Paused
 * before <node>" and "Continue". Headless Chromium against a real server serving the built page
 * (`npm run build` first); the run is held in its node by the test's gate (gate.mjs).
 */
import type { Client } from "@langchain/langgraph-sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/index.js";
import { PAGE_TESTS_SKIPPED } from "../support/browser.js";
import { gates } from "../support/gates.js";
import { type PageServer, startPageServer } from "../support/page-server.js";

let env: PageServer | undefined;
let server: RunningServer;
let page: Page;
let client: Client;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  env = await startPageServer("run-follow");
  ({ server, page, client } = env);
}, 60_000);
afterAll(() => env?.close());

const nodeStatus = (id: string) =>
  page.locator(`figure g.node[data-node-id="${id}"]`).getAttribute("data-status");
/**
 * Waits for the page to show the run's status, or a node's: on the page's own change, not a poll
 * of one second (expect.poll's), which a busy browser missed on the first run view (a 15× slower
 * page: still "running" after a second, then "success").
 */
const runStatusShown = (status: string) =>
  page.locator(`[role=status][data-run-status="${status}"]`).waitFor();
const nodeStatusShown = (id: string, status: string) =>
  page.locator(`figure g.node[data-node-id="${id}"][data-status="${status}"]`).waitFor();

describe.skipIf(PAGE_TESTS_SKIPPED)("the run view follows a run already going", () => {
  it("a yes/no interrupt is a checkbox labelled Yes under its question; checked, it resumes true", async () => {
    const { thread_id: id } = await client.threads.create();
    await client.runs.wait(id, "approval", { input: { draft: "Hi" } });
    await page.goto(`${server.url}/#/graphs/approval/run?thread=${id}`);
    const answer = page.getByRole("form", { name: "Answer interrupt" });
    await answer.getByText("Send this reply?", { exact: true }).waitFor();
    await answer.getByRole("checkbox", { name: "Yes" }).check();
    await answer.getByRole("button", { name: "Resume" }).click();
    await runStatusShown("success");
    expect((await client.threads.getState(id)).values).toMatchObject({
      approved: true,
      draft: "Hi (sent)",
    });
  });

  it("joins a background run started through the SDK, live, to its end", async () => {
    const { thread_id: id } = await client.threads.create();
    // A plain `runs.create`, no stream modes: the join replays only `values`.
    await client.runs.create(id, "gated", { input: {} });
    await expect.poll(() => gates().length).toBe(1);

    await page.goto(`${server.url}/#/graphs/gated/run?thread=${id}`);
    await runStatusShown("running");
    await nodeStatusShown("hold", "running");

    gates().shift()!();
    await runStatusShown("success");
    expect(await nodeStatus("hold")).toBe("done");
    expect((await client.threads.getState(id)).values).toEqual({ done: true });
  });

  it("leaving the run view closes the joined stream; the run itself goes on to its end", async () => {
    const { thread_id: id } = await client.threads.create();
    const run = await client.runs.create(id, "gated", { input: {} });
    await expect.poll(() => gates().length).toBe(1);
    await page.goto(`${server.url}/#/graphs/gated/run?thread=${id}`);
    await nodeStatusShown("hold", "running");
    const closed = page.waitForEvent("requestfailed", {
      predicate: (r) => r.url().includes(`/runs/${run.run_id}/stream`),
      timeout: 10_000,
    });
    await page.getByRole("link", { name: "Threads" }).click();
    // Still held in its node: only the page's end of the stream can have closed it.
    expect((await closed).failure()?.errorText).toBe("net::ERR_ABORTED");
    expect(gates()).toHaveLength(1);
    gates().shift()!();
    await client.runs.join(id, run.run_id);
    expect((await client.runs.get(id, run.run_id)).status).toBe("success");
  });

  it('"Run from here" in the threads view lands in a run view that follows the run', async () => {
    const { thread_id: id } = await client.threads.create();
    const first = await client.runs.create(id, "gated", { input: {} });
    await expect.poll(() => gates().length).toBe(1);
    gates().shift()!();
    await client.runs.join(id, first.run_id);

    await page.goto(`${server.url}/#/threads/${encodeURIComponent(id)}`);
    const before = page
      .locator("ol[aria-label='Checkpoints'] > li")
      .filter({ hasText: "next: hold" });
    await before.first().getByRole("button", { name: "Run from here" }).click();
    await page.waitForURL(`**/#/graphs/gated/run?thread=${id}`);
    await expect.poll(() => gates().length).toBe(1);
    await runStatusShown("running");
    await nodeStatusShown("hold", "running");
    // Its events replayed from the start: the run's id came with them (the `metadata` event).
    gates().shift()!();
    await runStatusShown("success");
    expect(await nodeStatus("hold")).toBe("done");
  });
});

describe.skipIf(PAGE_TESTS_SKIPPED)("the run view at a static breakpoint", () => {
  it('says "Paused before <node>" and "Continue" runs on from there', async () => {
    const { thread_id: id } = await client.threads.create();
    await client.runs.wait(id, "three-steps", { input: {}, interruptBefore: ["two"] });
    expect((await client.threads.getState(id)).next).toEqual(["two"]);

    await page.goto(`${server.url}/#/graphs/three-steps/run?thread=${id}`);
    const status = page.getByRole("status");
    await runStatusShown("interrupted");
    expect(await status.innerText()).toMatch(/Paused before two/);
    expect(await nodeStatus("two")).toBe("interrupted");
    expect(await page.getByRole("form", { name: "Answer interrupt" }).count()).toBe(0);

    await page.getByRole("button", { name: "Continue" }).click();
    await runStatusShown("success");
    await nodeStatusShown("three", "done");
    expect(await page.getByRole("button", { name: "Continue" }).count()).toBe(0);
    expect((await client.threads.getState(id)).values).toEqual({
      n: 3,
      path: ["one", "two", "three"],
    });
  });
});
