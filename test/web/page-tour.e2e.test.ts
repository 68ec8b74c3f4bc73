/**
 * The pictures of docs/dev.md ("The page beside LangGraph Studio"), made by the suite so they show
 * the page as it is: `graphspec dev` on the repository's graphs, headless Chromium at 1280×800, a
 * PNG per view to docs/images/dev/. Each step first checks what its picture is meant to show.
 * Thread ids and times differ on every run: they are hidden in the pictures, so a picture changes
 * only when the page does.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_TESTS_SKIPPED } from "../support/browser.js";
import { type DevPage, openDevPage, SUPERVISOR_RUN, startRunOnPage } from "../support/dev-page.js";

const PICTURES = join(import.meta.dirname, "..", "..", "docs", "images", "dev");
/** What differs from run to run: thread ids and times. */
const VARYING = ".run-status .thread, .long-id, time";

let dev: DevPage | undefined;
let page: Page;
let url: string;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  dev = await openDevPage("tour", {
    repoGraphs: true,
    // The example graphs' models answer from their fixtures' scripts (the page's default).
    env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
  });
  ({ page } = dev);
  url = dev.server.url;
  mkdirSync(PICTURES, { recursive: true });
}, 60_000);
afterAll(() => dev?.close());

/**
 * A picture of the whole page, in a window tall enough to hold it (a full-page screenshot of a
 * longer page scrolls the sticky header into its middle), with what varies hidden — through the
 * CSSOM, which the page's CSP allows (it refuses an injected <style>).
 */
async function picture(name: string) {
  await page.evaluate(
    `document.querySelectorAll(${JSON.stringify(VARYING)}).forEach((e) => { e.style.visibility = "hidden"; })`,
  );
  const height = (await page.evaluate("document.documentElement.scrollHeight")) as number;
  await page.setViewportSize({ width: 1280, height: Math.max(800, height) });
  await page.screenshot({ path: join(PICTURES, `${name}.png`) });
  await page.setViewportSize({ width: 1280, height: 800 });
}
const runStatus = (status: string) =>
  page.locator(`[role="status"][data-run-status="${status}"]`).waitFor();

describe.skipIf(PAGE_TESTS_SKIPPED)("the pictures of docs/dev.md", () => {
  it("graph.png: a graph drawn by kind, with its pause points and conditions", async () => {
    await page.goto(`${url}/#/graphs/support-triage`);
    const fig = page.getByRole("figure", { name: "Drawing of support-triage" });
    await fig.locator('g.node[data-node-id="approval"]').waitFor();
    expect(await fig.locator("g.edge.conditional").count()).toBeGreaterThan(0);
    await picture("graph");
  });

  it("run-interrupt.png: a run paused at its approval, the drawing lit, the form asking", async () => {
    await startRunOnPage(page, url, "support-triage", {
      input: { ticket: "T-1001: cannot log in" },
      context: { user_id: "u-42" },
    });
    await runStatus("interrupted");
    await page.getByRole("form", { name: "Answer interrupt" }).waitFor();
    await picture("run-interrupt");
  });

  it("run-tools.png: a finished run's messages, tool calls (a Command among them) and usage", async () => {
    await startRunOnPage(page, url, "supervisor", SUPERVISOR_RUN);
    await runStatus("success");
    const tools = page.getByRole("region", { name: "Tool calls" });
    await tools.getByText("A Command that writes draft, messages").waitFor();
    await picture("run-tools");
  });

  it("thread.png: a thread's state and its checkpoints, one opened", async () => {
    await page.goto(`${url}/#/threads`);
    const table = page.getByRole("table", { name: "Threads" });
    await table
      .getByRole("row")
      .filter({ hasText: "supervisor" })
      .getByRole("link")
      .first()
      .click();
    const checkpoints = page.getByRole("list", { name: "Checkpoints" });
    await checkpoints.waitFor();
    await checkpoints.locator("li[data-checkpoint-id] button[aria-expanded]").nth(1).click();
    await page.getByRole("region", { name: "State" }).waitFor();
    await picture("thread");
  });
});
