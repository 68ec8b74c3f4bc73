/**
 * graphspec dev's page chooses, per run, what answers for a graph's real models (docs/dev.md,
 * "Standing in for models"): `graphspec dev` with no `--scripts`, no provider key and the provider
 * URL on a closed port. Two example graphs run from their fixtures' scripts (the control's default
 * for a graph with models), one from the recording beside it (chosen with the keyboard), and the
 * real provider fails with a readable error — its code and hint, wrapped within the page. axe-core
 * in light and dark.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { PAGE_TESTS_SKIPPED, type PageSession, seriousAxeViolations } from "../support/browser.js";
import type { DevServer } from "../support/dev-server.js";
import { openExamplesPageForFile } from "../support/example-page.js";

let server: DevServer;
let s: PageSession;
let page: Page;
openExamplesPageForFile("stand-in", (dev) => {
  ({ server, session: s, page } = dev);
});

const control = () => page.getByLabel("Models answer from");
const status = (st: string) => page.locator(`[role="status"][data-run-status="${st}"]`).waitFor();
const inputField = (name: string) =>
  page.getByRole("form", { name: "Input" }).getByLabel(new RegExp(`^\\s*${name}\\s*\\*?\\s*$`));

async function startRun(graph: string, field: string, value: string) {
  await page.goto(`${server.url}/#/graphs/${graph}/run`);
  await inputField(field).fill(value);
}

describe.skipIf(PAGE_TESTS_SKIPPED)("graphspec dev's page: what answers for the models", () => {
  it("runs ticket-summary from its fixture's first test's scripts, the control's default", async () => {
    await startRun("ticket-summary", "ticket_id", "T-1001");
    expect(await control().inputValue()).toBe(
      "graphs/ticket-summary.test.yaml#the default model summarises the ticket the lookup found",
    );
    await page.getByRole("button", { name: "Start run" }).click();
    await status("success");
    await page.getByRole("region", { name: "Messages" }).getByText("Ada cannot log in.").waitFor();
    await s.shot("1-ticket-summary-scripts");
  });

  it("runs reflection, whose two models answer from their own scripts", async () => {
    await startRun("reflection", "task", "Write a one-line release note for version 2.4.");
    expect(await control().inputValue()).toContain("graphs/reflection.test.yaml#");
    await page.getByRole("button", { name: "Start run" }).click();
    await status("success");
    await page
      .getByRole("region", { name: "Messages" })
      .getByText("2.4: exports to LangGraph Platform, draws graphs, and types their state.")
      .first()
      .waitFor();
    await s.shot("2-reflection-scripts");
  });

  it("runs ticket-summary from the recording beside it, chosen with the keyboard", async () => {
    await startRun("ticket-summary", "ticket_id", "T-1001");
    await control().focus();
    // Down the list until the recording is chosen, as a person without a mouse would.
    for (let i = 0; i < 10 && !(await control().inputValue()).endsWith(".recording.json"); i++)
      await page.keyboard.press("ArrowDown");
    expect(await control().inputValue()).toBe("graphs/ticket-summary.recording.json");
    await page.getByRole("button", { name: "Start run" }).click();
    await status("success");
    await page
      .getByRole("region", { name: "Messages" })
      .getByText("Ada has been locked out since Monday.")
      .waitFor();
    await s.shot("3-ticket-summary-recording");
  });

  it("shows the real provider's failure with its code and hint, wrapped within the page", async () => {
    await startRun("ticket-summary", "ticket_id", "T-1001");
    await control().selectOption("");
    await page.getByRole("button", { name: "Start run" }).click();
    await status("error");
    // Measured in the page (a string: this file is type-checked without the DOM's types).
    const widths = (await page.evaluate(
      "({ page: document.documentElement.scrollWidth, view: window.innerWidth })",
    )) as { page: number; view: number };
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    const alert = page.locator(".run-failure[role=alert]");
    await alert.waitFor();
    const text = await alert.innerText();
    expect(text).toContain("unauthorized");
    expect(text).toContain("OPENAI_API_KEY");
    expect(text).toContain("--scripts @graph.test.yaml");
    await s.shot("4-provider-failure");
  });

  it("has no serious accessibility violation, light or dark, and no page error", async () => {
    const found: Record<string, unknown> = {};
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await s.shot(`5-axe-${scheme}`);
      const violations = await seriousAxeViolations(page);
      if (violations.length) found[scheme] = violations;
    }
    expect(found).toEqual({});
    s.expectClean();
  });
});
