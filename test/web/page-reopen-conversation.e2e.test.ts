/**
 * A thread reopened in the run view shows the whole conversation the live run ended with (issue
 * 27; docs/dev.md "Threads"): the person's message, each model answer with the tool calls it asked
 * for, and the tools' messages — from the thread list and after a reload, not only what the models
 * streamed. The repository's helpdesk example answers from its fixture's scripts (no provider key,
 * the provider URL on a closed port). axe-core, any impact, light and dark.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, PAGE_TESTS_SKIPPED, type PageSession } from "../support/browser.js";
import type { DevServer } from "../support/dev-server.js";
import { openExamplesPageForFile } from "../support/example-page.js";

let server: DevServer;
let s: PageSession;
let page: Page;
openExamplesPageForFile("reopen-conversation", (dev) => {
  ({ server, session: s, page } = dev);
});

const status = (st: string) =>
  page.locator(`.run-view [role="status"][data-run-status="${st}"]`).waitFor();
/** Each message of the Messages panel, as its text reads. */
const shownMessages = () =>
  page.getByRole("region", { name: "Messages" }).locator("ol.messages > li").allInnerTexts();

/** The person's message, each tool call the model asked for, each tool's answer, the last word. */
function expectWholeConversation(messages: string[]) {
  const all = messages.join("\n");
  expect(all).toContain("What about T-1001?");
  expect(all).toMatch(/calls lookup_ticket\(\{"ticket_id":"T-1001"\}\)/);
  expect(all).toContain('{"customer":"ada","subject":"Cannot log in","status":"open"}');
  expect(all).toContain("sent to u-42: T-1001 is open.");
  expect(all).toContain("I told the customer that T-1001 is open.");
}

describe.skipIf(PAGE_TESTS_SKIPPED)("a reopened thread shows the whole conversation", () => {
  let live: string[] = [];
  let thread = "";

  it("shows the person's, the model's and the tools' messages when the run ends", async () => {
    await page.goto(`${server.url}/#/graphs/helpdesk/run`);
    // Typed as a person would: the list of messages as JSON, the user id in the context form.
    await page
      .getByRole("form", { name: "Input" })
      .getByLabel(/messages/)
      .fill(JSON.stringify([{ role: "user", content: "What about T-1001?" }]));
    await page
      .getByRole("form", { name: "Context" })
      .getByLabel(/user_id/)
      .fill("u-42");
    await page.getByRole("button", { name: "Start run" }).click();
    await status("success");
    thread = new URL(page.url().replace("#", "")).searchParams.get("thread") ?? "";
    expect(thread).not.toBe("");
    live = await shownMessages();
    expectWholeConversation(live);
  });

  it("shows the same conversation opened from the thread list", async () => {
    await page.goto(`${server.url}/#/threads`);
    await page.getByRole("link", { name: thread }).click();
    await page.getByRole("link", { name: "Open in the run view" }).click();
    await status("success");
    const reopened = await shownMessages();
    expectWholeConversation(reopened);
    expect(reopened).toEqual(live);
  });

  it("shows the same conversation after a reload", async () => {
    await page.reload();
    await status("success");
    const reopened = await shownMessages();
    expectWholeConversation(reopened);
    expect(reopened).toEqual(live);
    // A tool's JSON answer (no spaces to break at) wraps within its panel, in Output and Messages.
    const overflowing = await page.evaluate(`[...document.querySelectorAll(".run-view .panel")]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.getAttribute("aria-label"))`);
    expect(overflowing).toEqual([]);
    await s.shot("reopened");
  });

  it("has no axe-core violation of any impact, light or dark, and no page error", async () => {
    const found: Record<string, unknown> = {};
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await s.shot(`axe-${scheme}`);
      const violations = await axeViolations(page);
      if (violations.length) found[scheme] = violations;
    }
    expect(found).toEqual({});
    s.expectClean();
  });
});
