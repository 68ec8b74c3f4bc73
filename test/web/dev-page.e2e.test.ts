/**
 * The end-to-end walk of issue 14, in headless Chromium against the built CLI (`graphspec dev`):
 * open a graph and see it drawn; add a node on disk and see the drawing change; save an invalid
 * change and see its diagnostics with the last good drawing kept; fix it; start a run from the
 * input form; see nodes light up; answer the interrupt in its form; see the run complete. Then an
 * agent's tool approval (Approve). A screenshot at each step (test/artifacts/web/e2e-<step>.png),
 * axe-core on the finished views, and no console error or failed request throughout.
 *
 * The page is driven by the DOM contract of docs/dev.md "The page" — roles and accessible names
 * first. Steps are tests of their own, in order, so a report names the first that fails; each
 * waits for a condition in the DOM, never a fixed time.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  openPage,
  PAGE_TESTS_SKIPPED,
  type PageSession,
  seriousAxeViolations,
} from "../support/browser.js";
import { type DevServer, startDevServer } from "../support/dev-server.js";

/** docs/spec.md's approval-demo, with its input named and a description for the list. */
const approvalDemo = (extraNode = "", firstHop = "ask", lastEdge = "END") => `version: 1
name: approval-demo
description: Asks a person before it sends a reply.
state:
  draft: { type: string, default: "" }
  approved: { type: boolean, default: false }
  reviewer: { type: string }
input: [draft]
nodes:${extraNode}
  ask:
    kind: interrupt
    payload:
      question: Send this reply?
      draft: "\${{ state.draft }}"
    schema:
      type: object
      properties: { approve: { type: boolean }, reviewer: { type: string } }
      required: [approve, reviewer]
    write: { approved: "\${{ resume.approve }}", reviewer: "\${{ resume.reviewer }}" }
  send:
    kind: set
    values: { draft: "\${{ state.draft + ' (sent)' }}" }
edges:
  - { from: START, to: ${firstHop} }${extraNode ? "\n  - { from: polish, to: ask }" : ""}
  - from: ask
    route:
      - { when: state.approved, to: send }
      - { default: END }
  - { from: send, to: ${lastEdge} }
`;
const POLISH = `
  polish:
    kind: set
    values: { draft: "\${{ state.draft + '!' }}" }`;
/** A node the invalid save adds, so a drawing of the refused file would show it. */
const REVIEW = `
  review:
    kind: set
    values: { draft: "\${{ state.draft }}" }`;

const SPEC = "graphs/approval-demo.yaml";
let server: DevServer;
let browser: Browser;
let s: PageSession;
let page: Page;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  // The browser first: without one the file fails at once, with no server left behind.
  browser = await launchBrowser();
  server = await startDevServer({
    repoGraphs: true,
    files: { [SPEC]: approvalDemo() },
    // With --scripts, a scripted model without a script fails when a run calls it: one each.
    scripts: {
      "support-triage": [{ structured: { priority: "urgent", reason: "locked out" } }],
      "ticket-agent": [
        { tool_calls: [{ name: "lookup_ticket", args: { ticket_id: "T-1001" } }] },
        { tool_calls: [{ name: "notify_customer", args: { message: "We are on it." } }] },
        { text: "I told the customer." },
      ],
    },
  });
  s = await openPage(browser, "e2e");
  page = s.page;
  // A step that does not come fails in 15 s, so one missing view does not hold the rest up.
  page.setDefaultTimeout(15_000);
}, 60_000);
afterAll(async () => {
  await s?.close();
  await browser?.close();
  await server?.stop();
});

const drawing = (name: string) => page.getByRole("figure", { name: `Drawing of ${name}` });
const node = (figure: Locator, id: string) => figure.locator(`g.node[data-node-id="${id}"]`);
/** Waits for a node of the drawing to have a run status. */
const nodeStatus = (figure: Locator, id: string, status: string) =>
  figure.locator(`g.node[data-node-id="${id}"][data-status="${status}"]`).waitFor();
/** A form's control by the property it edits: its label, perhaps with a required marker ("user_id *"). */
const field = (form: Locator, name: string) =>
  form.getByLabel(new RegExp(`^\\s*${name}\\s*\\*?\\s*$`));
const runStatus = (status: string) =>
  page.locator(`[role="status"][data-run-status="${status}"]`).waitFor();

describe.skipIf(PAGE_TESTS_SKIPPED)("graphspec dev's page, end to end", () => {
  it("1. opens a graph from the list and shows its drawing", async () => {
    await page.goto(`${server.url}/`);
    await page
      .getByRole("navigation", { name: "Graphs" })
      .getByRole("link", { name: /^approval-demo/ })
      .click();
    await page.getByRole("heading", { level: 2, name: "approval-demo" }).waitFor();
    const fig = drawing("approval-demo");
    await node(fig, "ask").waitFor();
    await node(fig, "send").waitFor();
    expect(await node(fig, "ask").getAttribute("data-kind")).toBe("interrupt");
    expect(await node(fig, "ask").textContent()).toContain("ask");
    expect(await node(fig, "polish").count()).toBe(0);
    expect(await page.getByRole("link", { name: "Run", exact: true }).getAttribute("href")).toBe(
      "#/graphs/approval-demo/run",
    );
    await s.shot("1-graph");
  });

  it("2. redraws when the spec gains a node on disk", async () => {
    server.write(SPEC, approvalDemo(POLISH, "polish"));
    const fig = drawing("approval-demo");
    await node(fig, "polish").waitFor();
    expect(await node(fig, "polish").getAttribute("data-kind")).toBe("set");
    await s.shot("2-edited");
  });

  it("3. shows an invalid save's diagnostics and keeps the last good drawing", async () => {
    // A new node `review`, and an edge from it to a node that does not exist.
    server.write(
      SPEC,
      `${approvalDemo(POLISH + REVIEW, "polish", "review")}  - { from: review, to: lats }\n`,
    );
    const diagnostics = page.getByRole("region", { name: "Diagnostics" });
    const item = diagnostics.getByRole("listitem").filter({ hasText: "unknown-node" });
    await item.waitFor();
    const text = await item.innerText();
    expect(text).toMatch(/approval-demo\.yaml:\d+:\d+/);
    expect(text).toContain("error");
    expect(text).toContain("lats");
    // The last good version stays drawn: polish, and not the refused file's review.
    const fig = drawing("approval-demo");
    await node(fig, "polish").waitFor();
    expect(await node(fig, "review").count()).toBe(0);
    await s.shot("3-invalid");
  });

  it("4. clears the diagnostics when the spec is fixed", async () => {
    server.write(SPEC, approvalDemo(POLISH, "polish"));
    await page
      .getByRole("region", { name: "Diagnostics" })
      .getByRole("listitem")
      .filter({ hasText: "unknown-node" })
      .waitFor({ state: "detached" });
    await node(drawing("approval-demo"), "polish").waitFor();
    await s.shot("4-fixed");
  });

  it("5. starts a run from the input form and lights nodes up to the interrupt", async () => {
    // Step 1 checks the graph view's "Run" link; going by the URL keeps this step its own.
    await page.goto(`${server.url}/#/graphs/approval-demo/run`);
    await field(page.getByRole("form", { name: "Input" }), "draft").fill("Hello");
    await s.shot("5-input");
    await page.getByRole("button", { name: "Start run" }).click();
    await runStatus("interrupted");
    const fig = drawing("approval-demo");
    await nodeStatus(fig, "polish", "done");
    await nodeStatus(fig, "ask", "interrupted");
    await nodeStatus(fig, "send", "idle");
    await s.shot("5-interrupted");
  });

  it("6. answers the interrupt in its form and sees the run complete", async () => {
    const answer = page.getByRole("form", { name: "Answer interrupt" });
    await field(answer, "approve").check();
    await field(answer, "reviewer").fill("ana");
    await s.shot("6-answer");
    await answer.getByRole("button", { name: "Resume" }).click();
    await runStatus("success");
    const fig = drawing("approval-demo");
    await nodeStatus(fig, "ask", "done");
    await nodeStatus(fig, "send", "done");
    await s.shot("6-success");
  });

  it("7. approves an agent's tool call (ticket-agent)", async () => {
    await page.goto(`${server.url}/#/graphs/ticket-agent/run`);
    await field(page.getByRole("form", { name: "Context" }), "user_id").fill("u-7");
    // A messages channel is a JSON list of messages in the form.
    await field(page.getByRole("form", { name: "Input" }), "messages").fill(
      JSON.stringify([{ role: "user", content: "What is up with T-1001?" }]),
    );
    await page.getByRole("button", { name: "Start run" }).click();
    await runStatus("interrupted");
    const calls = page.getByRole("region", { name: "Tool calls" });
    await calls.getByText("lookup_ticket").first().waitFor();
    await s.shot("7-approval");
    await page.getByRole("button", { name: "Approve" }).click();
    await runStatus("success");
    await calls.getByText("notify_customer").first().waitFor();
    await page
      .getByRole("region", { name: "Messages" })
      .getByText("I told the customer.")
      .waitFor();
    await s.shot("7-approved");
  });

  it("8. has no serious accessibility violation on the finished views, and no page error", async () => {
    const found: Record<string, unknown> = {};
    const check = async (view: string) => {
      await page.getByRole("heading", { level: 2 }).last().waitFor();
      await s.shot(`8-axe-${view}`);
      const violations = await seriousAxeViolations(page);
      if (violations.length) found[view] = violations;
    };
    // The run view as the last step left it (a finished run, its tool calls and messages shown).
    await check("run");
    const thread = /[?&]thread=([^&]+)/.exec(page.url())?.[1];
    for (const [view, hash] of [
      ["graph", "#/graphs/approval-demo"],
      ["threads", "#/threads"],
      ...(thread ? [["thread", `#/threads/${thread}`] as const] : []),
    ] as const) {
      await page.goto(`${server.url}/${hash}`);
      await check(view);
    }
    expect(found).toEqual({});
    s.expectClean();
  });
});
