/**
 * graphspec dev's page counts each model call's tokens once (issue 22, bug 1): an agent with
 * parallel tool calls on the real ChatOpenAI, over HTTP against the provider simulator — whose
 * usage arrives in each stream's last chunk, after the call's `on_chat_model_end` — shows in its
 * Usage panel, and prices, what the simulator reported, summed once per call.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatUsd } from "../../src/web/runs/run-cost.js";
import {
  launchBrowser,
  openPage,
  PAGE_TESTS_SKIPPED,
  type PageSession,
} from "../support/browser.js";
import { type DevServer, startDevServer } from "../support/dev-server.js";
import { type ProviderSim, startProviderSim } from "../support/provider-sim/server.js";

const spec = (url: string) => `version: 1
name: usage-agent
description: An agent with a priced model on the provider simulator.
state:
  messages: { type: messages }
models:
  default:
    model: "openai:gpt-4o-mini"
    base_url: "${url}"
    api_key: "\${{ env.SIM_KEY }}"
    max_retries: 0
    price: { input: 0.15, output: 0.6 }
tools:
  lookup_ticket: { module: ../tools/tickets.ts, export: lookupTicket }
nodes:
  helper:
    kind: agent
    system: Look tickets up, then answer briefly.
    tools: [lookup_ticket]
edges:
  - { from: START, to: helper }
  - { from: helper, to: END }
`;

let sim: ProviderSim;
let server: DevServer;
let browser: Browser;
let s: PageSession;
let page: Page;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  browser = await launchBrowser();
  sim = await startProviderSim([
    {
      tool_calls: [
        { name: "lookup_ticket", args: { ticket_id: "T-1001" } },
        { name: "lookup_ticket", args: { ticket_id: "T-1002" } },
      ],
      usage: { input_tokens: 20, output_tokens: 7 },
    },
    {
      tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1003" } }],
      usage: { input_tokens: 40, output_tokens: 3 },
    },
    { text: "Both are open.", usage: { input_tokens: 60, output_tokens: 11 } },
  ]);
  // The dev server's process reads the key from its environment, which it inherits.
  process.env.SIM_KEY = "sk-sim";
  server = await startDevServer({
    repoGraphs: true,
    files: { "graphs/usage-agent.yaml": spec(sim.openaiUrl) },
  });
  s = await openPage(browser, "usage");
  page = s.page;
  page.setDefaultTimeout(15_000);
}, 60_000);
afterAll(async () => {
  await s?.close();
  await browser?.close();
  await server?.stop();
  await sim?.close();
});

describe.skipIf(PAGE_TESTS_SKIPPED)("graphspec dev's page, usage", () => {
  it("shows an agent's usage and cost summed once per model call", async () => {
    await page.goto(`${server.url}/#/graphs/usage-agent/run`);
    await page
      .getByRole("form", { name: "Input" })
      .getByLabel(/^\s*messages\s*\*?\s*$/)
      .fill(JSON.stringify([{ role: "user", content: "Are T-1001 and T-1002 open?" }]));
    await page.getByRole("button", { name: "Start run" }).click();
    await page.locator('[role="status"][data-run-status="success"]').waitFor();
    await page.getByRole("region", { name: "Messages" }).getByText("Both are open.").waitFor();
    expect(sim.reported).toHaveLength(3);
    const { input_tokens: input, output_tokens: output } = sim.reportedTotal();
    const shown = async (what: string) => page.locator(`[data-usage="${what}"]`).innerText();
    expect(await shown("input")).toBe(String(input));
    expect(await shown("output")).toBe(String(output));
    expect(await shown("total")).toBe(String(input + output));
    expect(await shown("cost")).toBe(formatUsd((input * 0.15 + output * 0.6) / 1e6));
    await s.shot("usage");
    s.expectClean();
  });
});
