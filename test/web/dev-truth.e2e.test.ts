/**
 * graphspec dev's page tells a thread's truth, from the page alone and offline (issue 27): a
 * fork with edited state from a checkpoint of an example whose context has a required field,
 * written as shown (or, chosen, through the channel's reducer); a paused run opened again shows
 * the nodes that ran and the usage the run showed; a failed run opened again — after a reload —
 * shows its error with its code and hint, in the run view, the threads list and the thread's page.
 * The repository's example graphs, their models answering from the fixtures' scripts (the
 * "Models answer from" control), the real provider on a closed port for the failure. axe-core in
 * light and dark on each of those views.
 */
import { Client } from "@langchain/langgraph-sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_TESTS_SKIPPED, type PageSession, seriousAxeViolations } from "../support/browser.js";
import { type DevPage, openDevPage } from "../support/dev-page.js";
import type { DevServer } from "../support/dev-server.js";

let dev: DevPage | undefined;
let server: DevServer;
let s: PageSession;
let page: Page;
let client: Client;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  dev = await openDevPage("truth", {
    repoGraphs: true,
    env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
  });
  ({ server, session: s, page } = dev);
  client = new Client({ apiUrl: server.url, apiKey: null, callerOptions: { maxRetries: 0 } });
}, 60_000);
afterAll(() => dev?.close());

const TRIAGE_ROUTINE =
  "graphs/support-triage.test.yaml#a routine ticket is investigated with a lookup";
const status = (st: string) => page.locator(`[role="status"][data-run-status="${st}"]`).waitFor();
const field = (form: string, name: string) =>
  page.getByRole("form", { name: form }).getByLabel(new RegExp(`^\\s*${name}\\s*\\*?\\s*$`));
const node = (id: string) => page.locator(`g.node[data-node-id="${id}"]`);
const threadOfUrl = () => new URL(page.url().replace("#", "")).searchParams.get("thread")!;
const usageTotal = () => page.locator('[data-usage="total"]').innerText();
/** Views checked with axe once each test has shown them. */
const views: string[] = [];

/** Starts support-triage from the page with `standIn` answering for its model; its thread. */
async function runTriage(ticket: string, standIn?: string): Promise<string> {
  await page.goto(`${server.url}/#/graphs/support-triage/run`);
  await field("Input", "ticket").fill(ticket);
  await field("Context", "user_id").fill("u-42");
  if (standIn) await page.getByLabel("Models answer from").selectOption(standIn);
  await page.getByRole("button", { name: "Start run" }).click();
  await page.waitForURL(/thread=/);
  return threadOfUrl();
}

describe.skipIf(PAGE_TESTS_SKIPPED)("graphspec dev's page: a thread's truth", () => {
  it("forks support-triage (a required context field) with an edit written as shown", async () => {
    const id = await runTriage("T-1001: cannot log in");
    await status("interrupted");
    await page.goto(`${server.url}/#/threads/${id}`);
    const current = page.locator("ol[aria-label='Checkpoints'] > li").first();
    await current.getByRole("button", { name: "Fork from here" }).click();
    const dialog = page.getByRole("dialog", { name: /Fork from step/ });
    // What each reducer does to an edit is said before anything is written.
    await expect
      .poll(() => dialog.getByRole("list", { name: "Reducers" }).innerText())
      .toMatch(/attempts \(sum\): through the reducer, the edit adds the number/);
    const values = dialog.getByLabel("Values (JSON)");
    const edited = JSON.parse(await values.inputValue()) as Record<string, unknown>;
    await values.fill(JSON.stringify({ ...edited, attempts: 200, notes: ["edited"] }));
    await s.shot("1-fork-dialog");
    views.push("fork dialog");
    await checkAxe("fork-dialog");
    await dialog.getByRole("button", { name: "Fork" }).click();
    await dialog.waitFor({ state: "detached" });
    const forked = await client.threads.getState(id);
    expect(forked.values).toMatchObject({ attempts: 200, notes: ["edited"] });

    // Through the reducer, as LangGraph's updateState writes: 200 + 5 — from the fork, once the
    // timeline shows it as the current checkpoint.
    await expect
      .poll(() => page.locator("ol[aria-label='Checkpoints'] > li").first().innerText())
      .toMatch(/update\s+\(current\)/);
    await page
      .locator("ol[aria-label='Checkpoints'] > li")
      .first()
      .getByRole("button", { name: "Fork from here" })
      .click();
    const again = page.getByRole("dialog", { name: /Fork from step/ });
    const text = JSON.parse(await again.getByLabel("Values (JSON)").inputValue());
    await again.getByLabel("Values (JSON)").fill(JSON.stringify({ ...text, attempts: 5 }));
    await again.getByLabel(/Through the channel's reducer/).check();
    await again.getByRole("button", { name: "Fork" }).click();
    await again.waitFor({ state: "detached" });
    expect((await client.threads.getState(id)).values).toMatchObject({ attempts: 205 });
  });

  it("opens a paused run again with the nodes that ran and the usage the run showed", async () => {
    await runTriage("T-1001: cannot log in");
    await status("interrupted");
    await page.getByRole("form", { name: "Answer interrupt" }).waitFor();
    await expect.poll(() => node("classify").getAttribute("data-status")).toBe("done");
    await page.reload();
    await status("interrupted");
    await expect.poll(() => node("classify").getAttribute("data-status")).toBe("done");
    expect(await node("approval").getAttribute("data-status")).toBe("interrupted");
    await page.getByRole("form", { name: "Answer interrupt" }).waitFor();
  });

  it("opens a finished run again with the messages and usage the run showed", async () => {
    await runTriage("T-1002: invoice is wrong", TRIAGE_ROUTINE);
    await status("success");
    const live = await usageTotal();
    expect(live).toBe("105");
    await page.reload();
    await status("success");
    await expect.poll(usageTotal).toBe(live);
    await page
      .getByRole("region", { name: "Messages" })
      .getByText("T-1002 is open and waiting on billing.")
      .waitFor();
    expect(await node("classify").getAttribute("data-status")).toBe("done");
    expect(await node("investigate").getAttribute("data-status")).toBe("done");
  });

  it("shows a failed run's error with its code and hint after a reload, and on its thread", async () => {
    await page.goto(`${server.url}/#/graphs/ticket-summary/run`);
    await field("Input", "ticket_id").fill("T-1001");
    await page.getByLabel("Models answer from").selectOption("");
    await page.getByRole("button", { name: "Start run" }).click();
    await status("error");
    const id = threadOfUrl();
    await page.reload();
    await status("error");
    const alert = page.locator(".run-failure[role=alert]");
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/unauthorized[\s\S]*OPENAI_API_KEY/);
    await expect.poll(() => page.locator('g.node[data-status="error"]').count()).toBeGreaterThan(0);
    await s.shot("2-failed-run-reopened");
    views.push("failed run");
    await checkAxe("failed-run");

    await page.goto(`${server.url}/#/threads`);
    const row = page
      .getByRole("table", { name: "Threads" })
      .getByRole("row")
      .filter({ hasText: id });
    await expect.poll(() => row.innerText()).toMatch(/ticket-summary\s+error/);
    await row.getByRole("link", { name: id }).click();
    const failure = page.locator(".thread-failure[role=alert]");
    await failure.waitFor();
    expect(await failure.innerText()).toMatch(/unauthorized[\s\S]*OPENAI_API_KEY/);
    await s.shot("3-failed-thread");
    views.push("failed thread");
    await checkAxe("failed-thread");
    expect(views).toEqual(["fork dialog", "failed run", "failed thread"]);
    s.expectClean();
  });
});

/** No serious axe violation on the page as it is now, in light and in dark. */
async function checkAxe(name: string) {
  const found: Record<string, unknown> = {};
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await s.shot(`axe-${name}-${scheme}`);
    const violations = await seriousAxeViolations(page);
    if (violations.length) found[scheme] = violations;
  }
  await page.emulateMedia({ colorScheme: "light" });
  expect(found).toEqual({});
}
