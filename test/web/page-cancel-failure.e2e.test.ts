/**
 * A Cancel that fails is said, not swallowed (issue 27; docs/dev.md "Run options"): the server's
 * refusal — its message, its code, and a hint (the server's, or what to do when it gave none) —
 * under the run's status, announced (role=alert) and focused, the run going on as its status says;
 * Cancel pressed again stops it and the note goes. The refusal is the real server's: the cancel
 * request leaves the page for a run the server does not know (as when its thread was deleted, or a
 * restarted server forgot it), by rewriting the request's run id on its way (playwright's route).
 * axe-core, any impact, light and dark, with the note shown.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, PAGE_TESTS_SKIPPED, type PageSession } from "../support/browser.js";
import { type DevPage, openDevPage } from "../support/dev-page.js";
import type { DevServer } from "../support/dev-server.js";

const SLOW = `version: 1
name: slow
description: A node that waits until the run is cancelled.
state:
  done: { type: boolean, default: false }
nodes:
  wait: { kind: function, module: ../nodes/wait.ts, export: wait, writes: [done] }
edges:
  - { from: START, to: wait }
  - { from: wait, to: END }
`;

// Ends when the run's signal aborts (a cancel), or after a minute at the latest.
const WAIT = `export async function wait(_state: unknown, config: { signal?: AbortSignal }) {
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, 60_000);
    config?.signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(undefined); });
  });
  return { done: true };
}
`;

let dev: DevPage | undefined;
let server: DevServer;
let s: PageSession;
let page: Page;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  dev = await openDevPage("cancel-failure", {
    files: { "graphs/slow.yaml": SLOW, "nodes/wait.ts": WAIT },
  });
  ({ server, session: s, page } = dev);
}, 60_000);
afterAll(() => dev?.close());

const status = (st: string) =>
  page.locator(`.run-view [role="status"][data-run-status="${st}"]`).waitFor();
const CANCEL_URL = /\/threads\/[^/]+\/runs\/[^/]+\/cancel/;
const note = () => page.locator(".run-view .cancel-failure");

describe.skipIf(PAGE_TESTS_SKIPPED)("a Cancel that fails", () => {
  it("shows the server's refusal with its code and a hint, announced and focused", async () => {
    await page.goto(`${server.url}/#/graphs/slow/run`);
    await page.getByRole("button", { name: "Start run" }).click();
    await status("running");
    await page.route(CANCEL_URL, (route) =>
      route.continue({
        url: route
          .request()
          .url()
          .replace(/runs\/[^/]+\/cancel/, `runs/${randomUUID()}/cancel`),
      }),
    );
    await page.getByRole("button", { name: "Cancel run" }).focus();
    await page.keyboard.press("Enter");
    await note().waitFor();
    expect(await note().getAttribute("role")).toBe("alert");
    const text = await note().innerText();
    expect(text).toContain("The run was not cancelled");
    expect(text).toContain("run-not-found");
    expect(await note().locator(".help").innerText()).toMatch(/Cancel run again|reload/);
    // Focus went to the note (the keyboard is not left on a button that may go away).
    expect(await note().evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    // The run goes on: its status says so.
    await status("running");
    await s.shot("refused");
  });

  it("has no axe-core violation of any impact with the note shown, light or dark", async () => {
    const found: Record<string, unknown> = {};
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await s.shot(`axe-${scheme}`);
      const violations = await axeViolations(page);
      if (violations.length) found[scheme] = violations;
    }
    await page.emulateMedia({ colorScheme: "light" });
    expect(found).toEqual({});
  });

  it("cancels when pressed again, and the note goes", async () => {
    await page.unroute(CANCEL_URL);
    await page.getByRole("button", { name: "Cancel run" }).click();
    await status("cancelled");
    expect(await note().count()).toBe(0);
    // The one problem the page had is the refusal this test made.
    const problems = s.problems.filter((p) => !(/404/.test(p) && /\/cancel\b/.test(p)));
    expect(problems).toEqual([]);
  });
});
