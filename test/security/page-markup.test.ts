/**
 * Markup from a spec or a run never becomes markup on the page. Specs come from pull requests and
 * inputs from strangers; graphspec dev's page shows their descriptions, route conditions,
 * diagnostics and state values. Each is written here as HTML that would run script if it were
 * parsed (`<img onerror>`, `<script>`, an SVG `onload`): the page must show it as text, run none
 * of it, and log no error. Headless Chromium against the built CLI's `graphspec dev`.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  openPage,
  PAGE_TESTS_SKIPPED,
  type PageSession,
} from "../support/browser.js";
import { type DevServer, startDevServer } from "../support/dev-server.js";

const IMG = `<img src=x onerror="window.__pwned=1">`;
const SCRIPT = `<script>window.__pwned=2</script>`;
const SVG = `<svg onload="window.__pwned=3"></svg>`;
/** A YAML string of any text (a JSON string is a YAML double-quoted scalar). */
const str = JSON.stringify;

const spec = (condition: string) => `version: 1
name: marked
description: ${str(`${IMG} ${SCRIPT}`)}
state:
  note: { type: string, default: "", description: ${str(SVG)} }
  seen: { type: boolean, default: false }
nodes:
  look: { kind: set, values: { seen: true } }
edges:
  - { from: START, to: look }
  - from: look
    route:
      - { when: ${str(condition)}, to: END }
      - { default: END }
`;

let server: DevServer;
let browser: Browser;
let s: PageSession;
let page: Page;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  browser = await launchBrowser();
  server = await startDevServer({
    files: { "graphs/marked.yaml": spec(`state.note == '${IMG}'`) },
  });
  s = await openPage(browser, "page-markup");
  page = s.page;
  page.setDefaultTimeout(15_000);
}, 60_000);
afterAll(async () => {
  await s?.close();
  await browser?.close();
  await server?.stop();
});

/** What the injected handlers would have set; undefined while none has run. */
const pwned = () => page.evaluate(() => (globalThis as { __pwned?: number }).__pwned);
/** Elements the injected markup would have made, had it been parsed. */
const injected = () => page.locator("main img, main script, main svg[onload]").count();

describe.skipIf(PAGE_TESTS_SKIPPED)("markup in specs and runs stays text on the page", () => {
  it("a description and a route condition are shown as written", async () => {
    await page.goto(`${server.url}/#/graphs/marked`);
    await page.getByRole("heading", { level: 2, name: "marked" }).waitFor();
    await page.getByText(IMG, { exact: false }).first().waitFor();
    const figure = page.getByRole("figure", { name: "Drawing of marked" });
    await figure.locator('g.node[data-node-id="look"]').waitFor();
    // The condition is an edge label (cut when long; its title holds it whole).
    expect(await figure.textContent()).toContain("state.note == '<img");
    expect(await injected()).toBe(0);
    expect(await pwned()).toBeUndefined();
  });

  it("a state value typed into the run form is shown as written, in the run and the thread", async () => {
    await page.goto(`${server.url}/#/graphs/marked/run`);
    const input = page.getByRole("form", { name: "Input" });
    await input.getByLabel(/^\s*note\s*\*?\s*$/).fill(`${SCRIPT}${IMG}`);
    await input.getByRole("button", { name: "Start run" }).click();
    await page.locator('[role="status"][data-run-status="success"]').waitFor();
    const thread = new URLSearchParams(page.url().split("?")[1]).get("thread");
    expect(thread).toBeTruthy();
    await page.goto(`${server.url}/#/threads/${thread}`);
    const state = page.getByRole("region", { name: "State" });
    // A JSON tree: the string's quotes are escaped there, so look for the part without any.
    await state.getByText(SCRIPT, { exact: false }).first().waitFor();
    expect(await state.textContent()).toContain("<img src=x onerror=");
    expect(await injected()).toBe(0);
    expect(await pwned()).toBeUndefined();
  });

  it("a refused save's diagnostics quote the markup as text", async () => {
    server.write("graphs/marked.yaml", spec(`${SCRIPT} ==`));
    await page.goto(`${server.url}/#/graphs/marked`);
    const diagnostics = page.getByRole("region", { name: "Diagnostics" });
    await diagnostics.getByRole("listitem").first().waitFor();
    expect(await diagnostics.textContent()).toMatch(/graphs\/marked\.yaml:\d+:\d+/);
    expect(await injected()).toBe(0);
    expect(await pwned()).toBeUndefined();
    s.expectClean();
  });
});
