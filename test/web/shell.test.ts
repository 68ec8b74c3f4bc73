/**
 * The page `graphspec dev` serves at `/`, in headless Chromium against the built CLI on a copy of
 * the repository's graphs/: it loads from the server alone (offline), lists the graphs with their
 * descriptions, follows its routes (back and forward too), and axe-core finds no serious or
 * critical violation on any view. Every test also fails on a console error or failed request.
 */
import { Client } from "@langchain/langgraph-sdk";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  openPage,
  PAGE_TESTS_SKIPPED,
  type PageSession,
  seriousAxeViolations,
} from "../support/browser.js";
import { type DevServer, startDevServer } from "../support/dev-server.js";

let server: DevServer;
let browser: Browser;
const sessions: PageSession[] = [];

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  // The browser first: without one the file fails at once, with no server left behind.
  browser = await launchBrowser();
  server = await startDevServer({ repoGraphs: true });
}, 60_000);
afterAll(async () => {
  for (const s of sessions) await s.close();
  await browser?.close();
  await server?.stop();
});

async function open(test: string, hash = ""): Promise<PageSession> {
  const s = await openPage(browser, test);
  sessions.push(s);
  await s.page.goto(`${server.url}/${hash}`);
  await s.page.getByRole("navigation", { name: "Graphs" }).getByRole("link").first().waitFor();
  return s;
}

describe.skipIf(PAGE_TESTS_SKIPPED)("the page of graphspec dev", () => {
  it("loads from the server alone, under a 'self'-only CSP", async () => {
    const s = await openPage(browser, "offline");
    sessions.push(s);
    const response = await s.page.goto(`${server.url}/`);
    expect(response?.status()).toBe(200);
    const csp = response?.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    await s.page.getByRole("link", { name: "support-triage" }).waitFor();
    await s.shot("loaded");
    const origin = new URL(server.url).origin;
    // The page itself, its script and style, and the SDK's calls: nothing from elsewhere.
    expect(s.requests.length).toBeGreaterThanOrEqual(3);
    const elsewhere = s.requests.filter(
      (u) => !u.startsWith("data:") && new URL(u).origin !== origin,
    );
    expect(elsewhere).toEqual([]);
    // Named by their content's hash (scripts/build-web.mjs).
    expect(s.requests).toContainEqual(expect.stringMatching(/\/ui\/main-\w{8}\.js$/));
    expect(s.requests).toContainEqual(expect.stringMatching(/\/ui\/style-\w{8}\.css$/));
    s.expectClean();
  });

  it("lists the graphs of the folder with their descriptions", async () => {
    const s = await open("graph-list");
    const assistants = await new Client({ apiUrl: server.url }).assistants.search({ limit: 100 });
    const names = assistants.map((a) => a.name).sort();
    expect(names).toEqual(
      expect.arrayContaining(["helpdesk", "support-triage", "ticket-agent", "ticket-summary"]),
    );
    const nav = s.page.getByRole("navigation", { name: "Graphs" });
    const links = (await nav.getByRole("link").allInnerTexts()).map((t) => t.trim());
    for (const name of names) expect(links.some((t) => t.startsWith(name))).toBe(true);
    expect(links).toHaveLength(names.length);
    const text = await nav.innerText();
    for (const a of assistants) if (a.description) expect(text).toContain(a.description);
    expect(text).toContain("Triage a ticket; urgent ones need a person's approval.");
    await s.shot("list");
    s.expectClean();
  });

  it("follows its routes: links, back, forward, and a reload of a deep link", async () => {
    const s = await open("routes");
    const { page } = s;
    const heading = page.getByRole("heading", { level: 2 }).last();
    await page
      .getByRole("navigation", { name: "Graphs" })
      .getByRole("link", { name: "support-triage" })
      .click();
    await page.waitForURL(/#\/graphs\/support-triage$/);
    await page.getByRole("heading", { level: 2, name: "support-triage" }).waitFor();
    await s.shot("graph");

    await page.getByRole("link", { name: "Threads" }).click();
    await page.waitForURL(/#\/threads$/);
    await page.getByRole("heading", { level: 2, name: "Threads" }).waitFor();

    await page.goBack();
    await page.waitForURL(/#\/graphs\/support-triage$/);
    await page.getByRole("heading", { level: 2, name: "support-triage" }).waitFor();
    await page.goForward();
    await page.waitForURL(/#\/threads$/);
    await page.getByRole("heading", { level: 2, name: "Threads" }).waitFor();

    await page.goto(`${server.url}/#/graphs/ticket-agent/run`);
    await page.reload();
    await page.getByRole("heading", { level: 2, name: /ticket-agent/ }).waitFor();
    expect(await heading.innerText()).toContain("ticket-agent");
    await s.shot("run");

    await page.goto(`${server.url}/#/graphs/no-such-graph`);
    await page.getByRole("alert").filter({ hasText: "No graph named no-such-graph" }).waitFor();
    s.expectClean();
  });

  for (const [view, hash, ready] of [
    ["graph", "#/graphs/support-triage", "support-triage"],
    ["run", "#/graphs/support-triage/run", /support-triage/],
    ["threads", "#/threads", "Threads"],
  ] as const) {
    it(`has no serious or critical accessibility violation on the ${view} view (axe-core)`, async () => {
      const s = await open(`axe-${view}`, hash);
      await s.page.getByRole("heading", { level: 2, name: ready }).waitFor();
      await s.shot("view");
      expect(await seriousAxeViolations(s.page)).toEqual([]);
      s.expectClean();
    });
  }
});
