/**
 * Issue 27 item 7, the details of graphspec dev's page, in headless Chromium against the built CLI:
 * route conditions that begin alike drawn as different labels (the whole condition in the edge's
 * title); a tool that returns a LangGraph `Command` shown as what it does, not as raw JSON; the
 * graph list sorted by graph name, not by file; a skip link past the header and the list; focus on
 * the new view's heading after each route change, and on the run's status after Resume; and
 * axe-core with no violation of any impact on each view, light and dark.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, PAGE_TESTS_SKIPPED, type PageSession } from "../support/browser.js";
import { type DevPage, openDevPage, SUPERVISOR_RUN, startRunOnPage } from "../support/dev-page.js";

const LONG_ROUTES = readFileSync(
  join(import.meta.dirname, "../fixtures/drawing/long-routes.yaml"),
  "utf8",
);
/** Last by file name, first by graph name. */
const BY_NAME_FIRST = `version: 1
name: aardvark
description: Listed first by its name, though its file sorts last.
state: { n: { type: integer, default: 0 } }
nodes:
  count: { kind: set, values: { n: "\${{ state.n + 1 }}" } }
edges:
  - { from: START, to: count }
  - { from: count, to: END }
`;
const APPROVAL = `version: 1
name: approval
description: Asks a person before it sends a reply.
state:
  draft: { type: string, default: "" }
  approved: { type: boolean, default: false }
input: [draft]
nodes:
  ask:
    kind: interrupt
    payload: { question: Send this reply? }
    schema: { type: object, properties: { approve: { type: boolean } }, required: [approve] }
    write: { approved: "\${{ resume.approve }}" }
edges:
  - { from: START, to: ask }
  - { from: ask, to: END }
`;

let dev: DevPage | undefined;
let s: PageSession;
let page: Page;
let url: string;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  dev = await openDevPage("details", {
    repoGraphs: true,
    files: {
      "graphs/long-routes.yaml": LONG_ROUTES,
      "graphs/zzz-listed-by-name.yaml": BY_NAME_FIRST,
      "graphs/approval.yaml": APPROVAL,
    },
    // The example graphs' models answer from their fixtures' scripts (the page's default).
    env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
  });
  ({ session: s, page } = dev);
  url = dev.server.url;
}, 60_000);
afterAll(() => dev?.close());

/** What has focus: its tag, its text and, for the run status, its role. */
const focused = () =>
  page.evaluate(
    `(() => { const a = document.activeElement; return { tag: a.tagName.toLowerCase(), text: (a.textContent || "").trim(), role: a.getAttribute("role") }; })()`,
  ) as Promise<{ tag: string; text: string; role: string | null }>;
const heading = (name: string | RegExp) => page.getByRole("heading", { level: 2, name });
const graphLinks = () => page.getByRole("navigation", { name: "Graphs" }).getByRole("link");
const runStatus = (status: string) =>
  page.locator(`[role="status"][data-run-status="${status}"]`).waitFor();

describe.skipIf(PAGE_TESTS_SKIPPED)("graphspec dev's page: the details (issue 27)", () => {
  it("lists the graphs by their names, not their files", async () => {
    await page.goto(`${url}/#/`);
    await graphLinks().first().waitFor();
    const names = (await graphLinks().allInnerTexts()).map((t) => t.trim());
    expect(names).toContain("aardvark");
    expect(names[0]).toBe("aardvark");
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it("draws conditions that begin alike as different labels, each whole in its edge's title", async () => {
    await page.goto(`${url}/#/graphs/long-routes`);
    const fig = page.getByRole("figure", { name: "Drawing of long-routes" });
    await fig.locator("g.node").first().waitFor();
    const edges = fig.locator(
      'g.edge[data-target="refund_enterprise"], g.edge[data-target="refund_small_business"]',
    );
    expect(await edges.count()).toBe(2);
    const labels = await edges.locator(".edge-label text").allTextContents();
    expect(new Set(labels).size).toBe(2);
    for (const l of labels) expect(Array.from(l).length).toBeLessThanOrEqual(40);
    const titles = await edges.locator("title").allTextContents();
    for (const plan of ["enterprise_plan", "small_business_plan"])
      expect(titles).toContainEqual(
        expect.stringContaining(
          `state.category == 'billing_refund_request_for_customers_on_the_${plan}'`,
        ),
      );
    await s.shot("1-long-routes");
  });

  it("has a skip link, the first Tab, that takes focus to the view's heading", async () => {
    await page.goto(`${url}/#/graphs/supervisor`);
    await page.reload();
    await heading("supervisor").waitFor();
    await page.keyboard.press("Tab");
    expect(await focused()).toMatchObject({ tag: "a", text: "Skip to main content" });
    await s.shot("2-skip-link");
    await page.keyboard.press("Enter");
    expect(await focused()).toMatchObject({ tag: "h2", text: "supervisor" });
    // The URL is still the graph's: the skip link is not a route.
    expect(page.url()).toMatch(/#\/graphs\/supervisor$/);
    // The next Tab is in the view: its Run link.
    await page.keyboard.press("Tab");
    expect(await focused()).toMatchObject({ tag: "a", text: "Run" });
  });

  it("moves focus to the new view's heading on each route change, back and forward too", async () => {
    await graphLinks().filter({ hasText: "long-routes" }).click();
    await heading("long-routes").waitFor();
    await expect.poll(focused).toMatchObject({ tag: "h2", text: "long-routes" });
    await page
      .getByRole("navigation", { name: "Views" })
      .getByRole("link", { name: "Threads" })
      .click();
    await expect.poll(focused).toMatchObject({ tag: "h2", text: "Threads" });
    await page.goBack();
    await expect.poll(focused).toMatchObject({ tag: "h2", text: "long-routes" });
    await page.getByRole("link", { name: "Run", exact: true }).click();
    await expect.poll(focused).toMatchObject({ tag: "h2", text: "Run long-routes" });
  });

  it("shows a tool's Command as what it writes, not as its JSON", async () => {
    await startRunOnPage(page, url, "supervisor", SUPERVISOR_RUN);
    await runStatus("success");
    const tools = page.getByRole("region", { name: "Tool calls" });
    const draft = tools.getByRole("listitem").filter({ hasText: "save_draft" });
    const text = await draft.innerText();
    expect(text).not.toContain("lg_name");
    // The answer the model got, then what the Command writes, key by key.
    expect(text).toContain("saved 44 characters for s-1");
    expect(text).toContain("A Command that writes draft, messages");
    const writes = draft.getByRole("definition").getByLabel("State it writes");
    expect(await writes.innerText()).toContain("Pro is $24 since May; annual plans keep $20.");
    await s.shot("3-command");
  });

  it("moves focus to the run's status after Resume, not to the page's top", async () => {
    await page.goto(`${url}/#/graphs/approval/run`);
    await page.getByRole("button", { name: "Start run" }).click();
    await runStatus("interrupted");
    const answer = page.getByRole("form", { name: "Answer interrupt" });
    await answer.getByLabel(/approve/).check();
    await answer.getByRole("button", { name: "Resume" }).click();
    await runStatus("success");
    expect(await focused()).toMatchObject({ tag: "p", role: "status" });
  });

  it("has no axe-core violation of any impact on any view, light or dark", async () => {
    const views: [string, string, () => Promise<unknown>][] = [
      ["home", "#/", () => graphLinks().first().waitFor()],
      ["graph", "#/graphs/long-routes", () => heading("long-routes").waitFor()],
      ["run", "#/graphs/supervisor/run", () => heading("Run supervisor").waitFor()],
      ["threads", "#/threads", () => page.getByRole("table", { name: "Threads" }).waitFor()],
    ];
    const found: Record<string, unknown> = {};
    const check = async (view: string) => {
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        const v = await axeViolations(page);
        if (v.length) found[`${view} ${scheme}`] = v;
      }
      await page.emulateMedia({ colorScheme: "light" });
    };
    for (const [view, hash, ready] of views) {
      await page.goto(`${url}/${hash}`);
      await ready();
      await check(view);
    }
    // A finished run with its tool calls (the Command shown), and a thread's page.
    await startRunOnPage(page, url, "supervisor", SUPERVISOR_RUN);
    await runStatus("success");
    await check("run, finished");
    await page.goto(`${url}/#/threads`);
    await page.getByRole("table", { name: "Threads" }).getByRole("link").first().click();
    await page.getByRole("list", { name: "Checkpoints" }).waitFor();
    await check("thread");
    expect(found).toEqual({});
    s.expectClean();
  });
});
