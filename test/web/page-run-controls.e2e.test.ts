/**
 * LangGraph Studio's run controls on graphspec dev's page (issue 27, item 6; docs/dev.md "Run
 * options", "Chat", "Threads"): breakpoints chosen per run, a model from the spec's `allow`, the
 * tools the models may call, a recursion limit, cancelling a running run, a follow-up message on the
 * same thread, the assistant's configuration schema, and the thread list filtered by graph and
 * status while it stays current. The repository's example graphs answer from their fixtures'
 * scripts (no provider key, the provider URL on a closed port); two small graphs of this file's own
 * add a chat and a node that waits until cancelled. axe-core in light and dark.
 */
import { Client } from "@langchain/langgraph-sdk";
import axe from "axe-core";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_TESTS_SKIPPED, type PageSession } from "../support/browser.js";
import { type DevPage, openDevPage } from "../support/dev-page.js";
import type { DevServer } from "../support/dev-server.js";

const CHAT = `version: 1
name: chat
description: Answers each message of the conversation.
models:
  default: { model: "openai:gpt-4o-mini" }
state:
  messages: { type: messages }
nodes:
  answer: { kind: llm, system: Answer the person. }
edges:
  - { from: START, to: answer }
  - { from: answer, to: END }
`;

const CHAT_TESTS = `tests:
  - name: two turns
    input: { messages: [{ role: user, content: Hi }] }
    scripts:
      default: ["Hello, how can I help?", "T-1001 is open.", "You are welcome."]
`;

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
  dev = await openDevPage("run-controls", {
    repoGraphs: true,
    files: {
      "graphs/chat.yaml": CHAT,
      "graphs/chat.test.yaml": CHAT_TESTS,
      "graphs/slow.yaml": SLOW,
      "nodes/wait.ts": WAIT,
    },
    env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
  });
  ({ server, session: s, page } = dev);
}, 60_000);
afterAll(() => dev?.close());

const status = (st: string) => page.locator(`[role="status"][data-run-status="${st}"]`).waitFor();
const inputField = (name: string) =>
  page.getByRole("form", { name: "Input" }).getByLabel(new RegExp(`^\\s*${name}\\s*\\*?\\s*$`));
const options = () => page.getByRole("group", { name: "Run options" });
const messages = () => page.getByRole("region", { name: "Messages" });
const threadOfUrl = () => new URL(page.url().replace("#", "")).searchParams.get("thread") ?? "";

/**
 * A fresh run form: a page load (a hash change keeps the same graph's form as it was), with
 * nothing kept for the tab (the run options and stand-ins chosen by an earlier test).
 */
async function openRun(graph: string) {
  await page.goto("about:blank");
  await page.goto(`${server.url}/#/`);
  await page.evaluate("sessionStorage.clear()");
  await page.goto(`${server.url}/#/graphs/${graph}/run`);
  await page.getByRole("button", { name: "Start run" }).waitFor();
}

async function standIn(test: string) {
  await page.getByLabel("Models answer from").selectOption({ label: test });
}

/** Every axe-core violation on the page as it is (any impact). */
async function axeViolations(): Promise<unknown[]> {
  await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const run = (globalThis as unknown as { axe: typeof axe }).axe.run;
    const r = await run({ resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(" ")) }));
  });
}

async function axeInBothSchemes(view: string): Promise<Record<string, unknown>> {
  const found: Record<string, unknown> = {};
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await s.shot(`axe-${view}-${scheme}`);
    const violations = await axeViolations();
    if (violations.length) found[`${view} ${scheme}`] = violations;
  }
  await page.emulateMedia({ colorScheme: "light" });
  return found;
}

describe.skipIf(PAGE_TESTS_SKIPPED)("graphspec dev's page: Studio's run controls", () => {
  const axeFound: Record<string, unknown> = {};

  it("pauses before a node chosen on the page, then continues", async () => {
    await openRun("ticket-summary");
    await options().getByRole("group", { name: "Pause before" }).getByLabel("summarise").check();
    await inputField("ticket_id").fill("T-1001");
    await page.getByRole("button", { name: "Start run" }).click();
    await status("interrupted");
    await page.getByRole("status").getByText("Paused before summarise").waitFor();
    Object.assign(axeFound, await axeInBothSchemes("run-options"));
    // A reload keeps the tab's choices: the Continue runs with the same breakpoints.
    await page.reload();
    await status("interrupted");
    expect(
      await options()
        .getByRole("group", { name: "Pause before" })
        .getByLabel("summarise")
        .isChecked(),
    ).toBe(true);
    await page.getByRole("button", { name: "Continue" }).click();
    await status("success");
    await messages().getByText("Ada cannot log in.").waitFor();
  });

  it("pauses after a node chosen on the page", async () => {
    await openRun("ticket-summary");
    await options().getByRole("group", { name: "Pause after" }).getByLabel("lookup").check();
    await inputField("ticket_id").fill("T-1001");
    await page.getByRole("button", { name: "Start run" }).click();
    await status("interrupted");
    await page.getByRole("status").getByText("Paused before summarise").waitFor();
  });

  it("runs with a model the spec's `allow` lists, chosen on the page", async () => {
    await openRun("ticket-summary");
    await standIn(
      "Scripts of “a run chooses the large model by its provider name” (graphs/ticket-summary.test.yaml)",
    );
    const model = options().getByLabel("Model");
    expect(await model.locator("option").allInnerTexts()).toEqual([
      "The spec's own models",
      "large (openai:gpt-4o)",
      "claude (anthropic:claude-sonnet-4-5)",
    ]);
    await model.selectOption("large");
    await inputField("ticket_id").fill("T-1002");
    await page.getByRole("button", { name: "Start run" }).click();
    await status("success");
    await messages().getByText("Lin's invoice is wrong.").waitFor();
  });

  it("narrows the tools the models may call: a call of another is refused", async () => {
    await openRun("helpdesk");
    await standIn(
      "Scripts of “a run allowed only the lookup cannot write to the customer, and the model recovers” (graphs/helpdesk.test.yaml)",
    );
    const tools = options().getByRole("group", { name: "Tools the models may call" });
    await tools.getByLabel("notify_customer").uncheck();
    expect(await tools.getByLabel("lookup_ticket").isChecked()).toBe(true);
    await page
      .getByRole("form", { name: "Context" })
      .getByLabel(/user_id/)
      .fill("u-42");
    await inputField("messages").fill('[{ "role": "user", "content": "Tell me about T-1002" }]');
    await page.getByRole("button", { name: "Start run" }).click();
    await status("success");
    const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
    const state = await client.threads.getState(threadOfUrl());
    const toolMessages = (state.values as { messages: Record<string, unknown>[] }).messages.filter(
      (m) => m.type === "tool",
    );
    expect(toolMessages.map((m) => [m.name, m.status === "error"])).toEqual([
      ["notify_customer", true],
      ["lookup_ticket", false],
    ]);
  });

  it("stops a run at the recursion limit set on the page", async () => {
    await openRun("ticket-summary");
    await options().getByLabel("Recursion limit").fill("1");
    await inputField("ticket_id").fill("T-1001");
    await page.getByRole("button", { name: "Start run" }).click();
    await status("error");
    expect(await page.locator(".run-failure").innerText()).toMatch(/recursion/i);
  });

  it("cancels a running run", async () => {
    await openRun("slow");
    await page.getByRole("button", { name: "Start run" }).click();
    await status("running");
    const cancel = page.getByRole("button", { name: "Cancel run" });
    await cancel.focus();
    await page.keyboard.press("Enter");
    await status("cancelled");
    await page.getByRole("status").getByText("Cancelled").waitFor();
    const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
    const runs = await client.runs.list(threadOfUrl());
    expect(runs.map((r) => r.status)).toEqual(["interrupted"]);
    // A cancelled run did not fail: it is not offered as one to try again.
    expect(await page.getByRole("button", { name: /^Retry/ }).count()).toBe(0);
  });

  it("chats: a follow-up message runs again on the same thread", async () => {
    await openRun("chat");
    const chat = page.getByRole("form", { name: "Chat" });
    await chat.getByLabel("Message").fill("Hi");
    await chat.getByRole("button", { name: "Send" }).click();
    await status("success");
    await messages().getByText("Hello, how can I help?").waitFor();
    const thread = threadOfUrl();
    expect(thread).not.toBe("");
    await chat.getByLabel("Message").fill("Is T-1001 open?");
    await page.keyboard.press("Control+Enter");
    await status("success");
    await messages().getByText("T-1001 is open.").waitFor();
    await messages().getByText("Is T-1001 open?").waitFor();
    expect(threadOfUrl()).toBe(thread);
    const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
    const state = await client.threads.getState(thread);
    const said = (state.values as { messages: { type: string; content: string }[] }).messages.map(
      (m) => [m.type, m.content],
    );
    expect(said).toEqual([
      ["human", "Hi"],
      ["ai", "Hello, how can I help?"],
      ["human", "Is T-1001 open?"],
      ["ai", "T-1001 is open."],
    ]);
    Object.assign(axeFound, await axeInBothSchemes("chat"));

    // Back on the thread from its page: the conversation goes on there.
    await page.goto("about:blank");
    await page.goto(`${server.url}/#/threads/${thread}`);
    await page.getByRole("link", { name: "Open in the run view" }).click();
    await messages().getByText("T-1001 is open.").waitFor();
    await chat.getByLabel("Message").fill("Thanks!");
    await chat.getByRole("button", { name: "Send" }).click();
    await messages().getByText("You are welcome.").waitFor();
    expect(threadOfUrl()).toBe(thread);
  });

  it("publishes the choices a run may make as the assistant's configuration schema", async () => {
    const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
    const schemas = await client.assistants.getSchemas("helpdesk");
    expect(schemas.config_schema).toMatchObject({
      type: "object",
      properties: {
        model: { type: "string", enum: ["large", "claude"] },
        toolIds: { type: "array", items: { enum: ["lookup_ticket", "notify_customer"] } },
      },
    });
    expect((await client.assistants.getSchemas("slow")).config_schema).toBeNull();
    // The allowlist reaches subgraphs: their tools are choices too.
    expect((await client.assistants.getSchemas("supervisor")).config_schema).toMatchObject({
      properties: { toolIds: { items: { enum: ["search_notes", "save_draft"] } } },
    });
  });

  it("filters the thread list by graph and status, and keeps it current", async () => {
    await page.goto(`${server.url}/#/threads`);
    const table = page.getByRole("table", { name: "Threads" });
    await table.waitFor();
    const filters = page.getByRole("search", { name: "Filter threads" });
    await filters.getByLabel("Graph").selectOption("ticket-summary");
    const graphsShown = async () =>
      [...new Set(await table.locator("tbody tr td:first-of-type").allInnerTexts())].sort();
    await expect.poll(graphsShown).toEqual(["ticket-summary"]);
    await filters.getByLabel("Status").selectOption("error");
    await expect.poll(() => table.locator("tbody tr").count()).toBe(1);

    // A new thread of the chosen graph and status shows up without a reload; another graph's does not.
    await filters.getByLabel("Status").selectOption("");
    await filters.getByLabel("Graph").selectOption("chat");
    await expect.poll(graphsShown).toEqual(["chat"]);
    const before = await table.locator("tbody tr").count();
    const client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
    const other = await client.threads.create();
    await client.runs.wait(other.thread_id, "slow", {
      input: {},
      interruptBefore: ["wait"],
    });
    const mine = await client.threads.create({ graphId: "chat" });
    await table.getByRole("link", { name: mine.thread_id }).waitFor();
    expect(await table.locator("tbody tr").count()).toBe(before + 1);
    expect(await table.getByRole("link", { name: other.thread_id }).count()).toBe(0);
    Object.assign(axeFound, await axeInBothSchemes("threads"));
  });

  it("has no accessibility violation, light or dark, and no page error", () => {
    expect(axeFound).toEqual({});
    s.expectClean();
  });
});
