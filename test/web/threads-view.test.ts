/**
 * The threads view in headless Chromium (Debian's, through playwright-core) against a real server
 * serving the built page (`npm run build` first, as for the CLI tests): the list, a thread's state
 * and checkpoint timeline, a checkpoint's diff against its parent, "Fork from here" (a new branch,
 * checked through the SDK), "Run from here" (a run from that checkpoint, then the run view), and
 * "Delete thread" — refused for a busy thread, done once confirmed. The page is driven by its
 * roles and names, as the DOM contract in docs/dev.md says.
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
  env = await startPageServer("threads-view");
  ({ server, page, client } = env);
}, 60_000);
afterAll(() => env?.close());

const checkpoints = () => page.locator("ol[aria-label='Checkpoints'] > li");

describe.skipIf(PAGE_TESTS_SKIPPED)("the threads view", () => {
  it("lists threads with their graph and status, and opens one: state, interrupts, timeline", async () => {
    const { thread_id: done } = await client.threads.create();
    await client.runs.wait(done, "three-steps", { input: {} });
    const { thread_id: asking } = await client.threads.create();
    await client.runs.wait(asking, "approval", { input: { draft: "Hello" } });

    await page.goto(`${server.url}/#/threads`);
    const table = page.getByRole("table", { name: "Threads" });
    const row = table.getByRole("row").filter({ hasText: asking });
    await expect.poll(() => row.innerText()).toMatch(/approval\s+interrupted/);
    await expect
      .poll(() => table.getByRole("row").filter({ hasText: done }).innerText())
      .toMatch(/three-steps\s+idle/);

    await row.getByRole("link", { name: asking }).click();
    await page.getByRole("region", { name: "State" }).waitFor();
    expect(await page.getByRole("region", { name: "State" }).innerText()).toContain('"Hello"');
    expect(await page.getByRole("link", { name: "Answer" }).getAttribute("href")).toBe(
      `#/graphs/approval/run?thread=${asking}`,
    );
    await expect.poll(() => checkpoints().count()).toBe(3);
    expect(await checkpoints().first().innerText()).toMatch(
      /Step 1\s+loop\s+\(current\).*next: ask/,
    );
  });

  it("shows a checkpoint's values and its changes; forks from it; runs from it", async () => {
    const { thread_id: id } = await client.threads.create();
    await client.runs.wait(id, "three-steps", { input: {} });
    const before = await client.threads.getHistory(id, { limit: 100 });
    const afterOne = before.find((s) => s.next[0] === "two")!;

    await page.goto(`${server.url}/#/threads/${encodeURIComponent(id)}`);
    const item = checkpoints().filter({ hasText: "Step 1" });
    await item.getByRole("button", { name: /Step 1/ }).click();
    const changes = item.getByRole("table", { name: "Changes" });
    expect(await changes.innerText()).toMatch(/n\s+changed\s+0\s+1/);

    await item.getByRole("button", { name: "Fork from here" }).click();
    const dialog = page.getByRole("dialog", { name: "Fork from step 1" });
    await dialog.getByLabel("Values (JSON)").fill(JSON.stringify({ n: 10, path: ["one"] }));
    await dialog.getByLabel("As node (optional)").fill("one");
    await dialog.getByRole("button", { name: "Fork" }).click();
    await dialog.waitFor({ state: "detached" });
    // The fork is the current checkpoint, a branch from step 1; only `n` was written, as shown
    // (the dialog's default: its `sum` reducer is bypassed, so 10, not 1 + 10).
    await expect
      .poll(() => checkpoints().first().innerText())
      .toMatch(/update\s+\(current\).*branches from step 1/);
    const state = await client.threads.getState(id);
    expect(state.parent_checkpoint?.checkpoint_id).toBe(afterOne.checkpoint.checkpoint_id);
    expect(state.values).toEqual({ n: 10, path: ["one"] });

    await checkpoints().first().getByRole("button", { name: "Run from here" }).click();
    await page.waitForURL(`**/#/graphs/three-steps/run?thread=${id}`);
    await expect
      .poll(async () => (await client.threads.getState(id)).values)
      .toEqual({ n: 12, path: ["one", "two", "three"] });
  });

  it("a thread that could not be read says why and can be read again", async () => {
    const { thread_id: id } = await client.threads.create();
    await client.runs.wait(id, "three-steps", { input: {} });
    // The server out of reach for the first read of the thread's state, then back.
    const stateRead = (url: URL) => url.pathname === `/threads/${id}/state`;
    await page.route(stateRead, (route) => route.abort("connectionrefused"), { times: 1 });
    await page.goto(`${server.url}/#/threads/${id}`);
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("button", { name: "Delete thread" }).count()).toBe(0);
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByRole("button", { name: "Delete thread" }).waitFor();
    expect(await page.getByRole("region", { name: "State" }).innerText()).toContain("three");
    expect(await page.getByRole("alert").count()).toBe(0);
    await page.unrouteAll();
  });

  it("Delete thread asks first; a busy thread is not deleted and the dialog says why", async () => {
    const { thread_id: id } = await client.threads.create();
    const run = await client.runs.create(id, "gated", { input: {} });
    await expect.poll(() => gates().length).toBe(1);

    await page.goto(`${server.url}/#/threads/${id}`);
    await page.getByRole("button", { name: "Delete thread" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete thread?" });
    await dialog.getByRole("button", { name: "Delete" }).click();
    expect(await dialog.getByRole("alert").innerText()).toMatch(/run in progress.*not deleted/);
    expect((await client.threads.get(id)).status).toBe("busy");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    gates().shift()!();
    await client.runs.join(id, run.run_id);
    await page.getByRole("button", { name: "Delete thread" }).click();
    await page
      .getByRole("dialog", { name: "Delete thread?" })
      .getByRole("button", { name: "Delete" })
      .click();
    await page.waitForURL(/#\/threads$/);
    await expect(client.threads.get(id)).rejects.toThrow(/404/);
  });
});
