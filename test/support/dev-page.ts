/**
 * A page of `graphspec dev` in headless Chromium, as most page tests start one: the browser, the
 * dev server (startDevServer's options), one session on it with a 15 s default wait. `close` ends
 * all three.
 */
import type { Browser, Page } from "playwright-core";
import { launchBrowser, openPage, type PageSession } from "./browser.js";
import { type DevServer, type DevServerOptions, startDevServer } from "./dev-server.js";

export interface DevPage {
  server: DevServer;
  browser: Browser;
  session: PageSession;
  page: Page;
  close(): Promise<void>;
}

/** Starts the browser and `graphspec dev`, and opens a session named `name` (its screenshots'). */
export async function openDevPage(name: string, options: DevServerOptions): Promise<DevPage> {
  const browser = await launchBrowser();
  // A server or page that fails to start leaves nothing running behind the failed set-up.
  const server = await startDevServer(options).catch(async (e) => {
    await browser.close();
    throw e;
  });
  const session = await openPage(browser, name).catch(async (e) => {
    await Promise.all([browser.close(), server.stop()]);
    throw e;
  });
  session.page.setDefaultTimeout(15_000);
  return {
    server,
    browser,
    session,
    page: session.page,
    async close() {
      await session.close();
      await browser.close();
      await server.stop();
    },
  };
}

/**
 * Opens `graph`'s run view at `url`, fills its Input and Context forms (a field found by its
 * label containing the key) and presses Start run.
 */
export async function startRunOnPage(
  page: Page,
  url: string,
  graph: string,
  fields: { input?: Record<string, string>; context?: Record<string, string> },
): Promise<void> {
  await page.goto(`${url}/#/graphs/${graph}/run`);
  for (const [form, values] of [
    ["Input", fields.input],
    ["Context", fields.context],
  ] as const)
    for (const [label, value] of Object.entries(values ?? {}))
      await page.getByRole("form", { name: form }).getByLabel(new RegExp(label)).fill(value);
  await page.getByRole("button", { name: "Start run" }).click();
}

/** A run of the repository's supervisor example that its fixture's first test scripts to the end. */
export const SUPERVISOR_RUN = {
  input: { request: "What changed in pricing?" },
  context: { session_id: "s-1" },
};
