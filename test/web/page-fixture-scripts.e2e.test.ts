/**
 * graphspec dev's page runs an example graph offline with its fixture's scripts (issue 25, item
 * 3): `graphspec dev --scripts @graphs/ticket-summary.test.yaml`, no provider key and the provider
 * URL on a closed port, a run started from the input form — the catalog's real model
 * (`openai:gpt-4o-mini`) answers from the fixture's script under its entry name, `default`.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { PAGE_TESTS_SKIPPED, type PageSession } from "../support/browser.js";
import { type DevPage, openDevPage } from "../support/dev-page.js";
import type { DevServer } from "../support/dev-server.js";

let dev: DevPage | undefined;
let server: DevServer;
let s: PageSession;
let page: Page;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  dev = await openDevPage("fixture-scripts", {
    repoGraphs: true,
    args: ["--scripts", "@graphs/ticket-summary.test.yaml"],
    env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
  });
  ({ server, session: s, page } = dev);
}, 60_000);
afterAll(() => dev?.close());

describe.skipIf(PAGE_TESTS_SKIPPED)("graphspec dev's page with a fixture's scripts", () => {
  it("runs ticket-summary offline: its real model answers from the fixture", async () => {
    await page.goto(`${server.url}/#/graphs/ticket-summary/run`);
    await page
      .getByRole("form", { name: "Input" })
      .getByLabel(/^\s*ticket_id\s*\*?\s*$/)
      .fill("T-1001");
    await page.getByRole("button", { name: "Start run" }).click();
    await page.locator('[role="status"][data-run-status="success"]').waitFor();
    await page.getByText("Ada cannot log in.").first().waitFor();
    await s.shot("fixture-scripts");
    s.expectClean();
  });
});
