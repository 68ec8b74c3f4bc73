/**
 * The page follows a hash that changes while it starts: its router listens for `hashchange` only
 * after the first paint (an effect), so a link followed as the page loads — a hash changed after
 * the first render, before that effect — had its event before anyone listened, and the page
 * stayed on "Choose a graph" (seen in CI: a test that went from `#/` to a run view at once waited
 * 15 s for a Start run button that never came).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_TESTS_SKIPPED, type PageSession } from "../support/browser.js";
import { type DevPage, openDevPage } from "../support/dev-page.js";
import type { DevServer } from "../support/dev-server.js";

let dev: DevPage | undefined;
let server: DevServer;
let s: PageSession;
let page: Page;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  dev = await openDevPage("early-hash", { repoGraphs: true });
  ({ server, session: s, page } = dev);
}, 60_000);
afterAll(() => dev?.close());

describe.skipIf(PAGE_TESTS_SKIPPED)("graphspec dev's page and a hash changed as it starts", () => {
  it("shows the route the hash names, not the one it loaded with", async () => {
    // The hash changes, and its event is gone, just before the router starts to listen: as if
    // the event had come between the first paint and the effect (replaceState fires none).
    await page.addInitScript(`{
      const add = window.addEventListener;
      let moved = false;
      window.addEventListener = function (type, ...rest) {
        if (type === "hashchange" && !moved && location.hash === "#/") {
          moved = true;
          history.replaceState(null, "", "#/graphs/ticket-summary/run");
        }
        return add.call(this, type, ...rest);
      };
    }`);
    await page.goto(`${server.url}/#/`);
    await page.getByRole("button", { name: "Start run" }).waitFor();
    expect(page.url()).toMatch(/#\/graphs\/ticket-summary\/run$/);
    s.expectClean();
  });
});
