/**
 * A thread's page marks a failed tool message (issue 27): a `ToolMessage` with `status: "error"` —
 * here helpdesk's `notify_customer`, refused by the run's tool allowlist — reads "failed" beside
 * its role, in words (not colour alone), and a tool that answered does not. The run is started
 * from the page (helpdesk's fixture scripts, the tools unchecked in Run options), the thread
 * opened from its link. axe-core in light and dark on the thread's page.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, PAGE_TESTS_SKIPPED, type PageSession } from "../support/browser.js";
import { type DevPage, openDevPage } from "../support/dev-page.js";

let dev: DevPage | undefined;
let s: PageSession;
let page: Page;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  dev = await openDevPage("thread-transcript", {
    repoGraphs: true,
    env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
  });
  ({ session: s, page } = dev);
}, 60_000);
afterAll(() => dev?.close());

const DENIED = "a run allowed only the lookup cannot write to the customer, and the model recovers";

describe.skipIf(PAGE_TESTS_SKIPPED)("graphspec dev's page: a thread's transcript", () => {
  it("marks the tool message that failed, in words, and not the one that answered", async () => {
    await page.goto(`${dev!.server.url}/#/graphs/helpdesk/run`);
    await page
      .getByLabel("Models answer from")
      .selectOption({ label: `Scripts of “${DENIED}” (graphs/helpdesk.test.yaml)` });
    await page
      .getByRole("form", { name: "Input" })
      .getByLabel(/messages/)
      .fill(JSON.stringify([{ role: "user", content: "Tell me about T-1002" }]));
    await page
      .getByRole("form", { name: "Context" })
      .getByLabel(/user_id/)
      .fill("u-42");
    const tools = page
      .getByRole("group", { name: "Run options" })
      .getByRole("group", { name: "Tools the models may call" });
    for (const box of await tools.getByRole("checkbox").all())
      await box.setChecked((await box.locator("..").innerText()).trim() === "lookup_ticket");
    await page.getByRole("button", { name: "Start run" }).click();
    await page.locator('.run-view [role="status"][data-run-status="success"]').waitFor();
    const thread = new URL(page.url().replace("#", "")).searchParams.get("thread")!;

    await page.goto(`${dev!.server.url}/#/threads/${thread}`);
    const transcript = page.getByRole("region", { name: "State" }).getByRole("list", {
      name: "Messages",
    });
    const denied = transcript.getByRole("listitem").filter({ hasText: "(notify_customer)" });
    const answered = transcript.getByRole("listitem").filter({ hasText: "(lookup_ticket)" });
    await expect.poll(() => denied.innerText()).toMatch(/tool \(notify_customer\) · failed/i);
    expect(await answered.innerText()).not.toMatch(/failed/i);

    const found: Record<string, unknown> = {};
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await s.shot(`failed-tool-${scheme}`);
      const violations = await axeViolations(page);
      if (violations.length) found[scheme] = violations;
    }
    await page.emulateMedia({ colorScheme: "light" });
    expect(found).toEqual({});
    s.expectClean();
  });
});
