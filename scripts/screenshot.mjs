#!/usr/bin/env node
/**
 * The README's picture of the page: `graphspec dev` (the built CLI) on the repository's graphs/,
 * headless Chromium (Debian's, through playwright-core) at a view, a screenshot to
 * docs/images/dev-page.png. Run after `npm run build`, again when the page changes:
 *
 *   node scripts/screenshot.mjs [--view '#/graphs/support-triage/run'] [--out docs/images/dev-page.png]
 *
 * On a run view it starts a run of support-triage (its classifier scripted to find the ticket
 * urgent) and waits until it pauses for the person's approval: the drawing lit, the form asking.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { launchChromium, startDev } from "./dev-in-chromium.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: opts } = parseArgs({
  options: {
    view: { type: "string", default: "#/graphs/support-triage/run" },
    out: { type: "string", default: join(ROOT, "docs/images/dev-page.png") },
  },
});
// What the scripted classifier answers; a graph whose model has no script does not build, so the
// list shows ticket-agent refused — true to `graphspec dev --scripts`, and a badge worth showing.
const SCRIPTS = JSON.stringify({
  "support-triage": [{ structured: { priority: "urgent", reason: "the customer is locked out" } }],
});

const { url, server } = await startDev(ROOT, ["--scripts", SCRIPTS]);
try {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${url}/${opts.view}`);
    await page.locator('nav[aria-label="Graphs"] a').first().waitFor();
    // The drawing, when the view has one; the page settles once its requests are answered.
    await page
      .locator("figure g.node")
      .first()
      .waitFor({ timeout: 5_000 })
      .catch(() =>
        console.error("no drawing on this view: the screenshot shows the page without one"),
      );
    if (opts.view.endsWith("/run")) {
      const input = page.getByRole("form", { name: "Input" });
      await input.getByLabel("ticket").fill("I cannot log in since this morning");
      await page
        .getByRole("form", { name: "Context" })
        .getByLabel(/^user_id/)
        .fill("u-42");
      await input.getByRole("button", { name: "Start run" }).click();
      await page.locator('[data-run-status="interrupted"]').waitFor({ timeout: 20_000 });
    }
    await page.waitForLoadState("networkidle").catch(() => {});
    mkdirSync(dirname(opts.out), { recursive: true });
    await page.screenshot({ path: opts.out });
    console.log(opts.out);
  } finally {
    await browser.close();
  }
} finally {
  server.kill("SIGTERM");
}
