/**
 * Saved assistants on graphspec dev's run form (issue 27, item 6; docs/dev.md "Run options"): the
 * run options and context saved as a named assistant, picked again on a fresh form (its options
 * fill the controls, its context gives the required `user` so the form does not ask for it, the
 * run starts with its id), then deleted; the pick kept across a reload; a new version saved from
 * the form and an older one chosen again — checked through the official SDK against the same
 * server. axe-core in light and dark.
 */
import { Client } from "@langchain/langgraph-sdk";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, PAGE_TESTS_SKIPPED, type PageSession } from "../support/browser.js";
import { type DevPage, openDevPage } from "../support/dev-page.js";

const PICKER = `version: 1
name: picker
description: An agent whose run may choose its model and the tools it may call.
input: [topic]
state:
  topic: { type: string, default: "" }
  messages: { type: messages }
context:
  user: { type: string, required: true }
models:
  default: { model: "scripted:small", allow: [large] }
  large: { model: "scripted:large" }
tools:
  add:
    module: ../nodes/tools.mjs
    description: Add two numbers.
    schema: { type: object, properties: { a: { type: number }, b: { type: number } }, required: [a, b] }
  shout:
    module: ../nodes/tools.mjs
    description: Say it loudly.
    schema: { type: object, properties: { text: { type: string } }, required: [text] }
nodes:
  work: { kind: agent, system: Use your tools., tools: [add, shout], max_steps: 6 }
edges:
  - { from: START, to: work }
  - { from: work, to: END }
`;

const TOOLS = `export const add = ({ a, b }) => String(a + b);
export const shout = ({ text }) => String(text).toUpperCase();
`;

const NAME = "Large, shout only";

let dev: DevPage | undefined;
let s: PageSession;
let page: Page;
let client: Client;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  dev = await openDevPage("saved-assistants", {
    files: { "graphs/picker.yaml": PICKER, "nodes/tools.mjs": TOOLS },
    scripts: { small: [{ text: "small" }], large: [{ text: "large" }] },
  });
  ({ session: s, page } = dev);
  client = new Client({ apiUrl: dev.server.url, callerOptions: { maxRetries: 0 } });
}, 60_000);
afterAll(() => dev?.close());

const options = () => page.getByRole("group", { name: "Run options" });
const picker = () => page.getByRole("group", { name: "Assistant" });

/** A fresh run form: nothing kept for the tab. */
async function openRun() {
  await page.goto("about:blank");
  await page.goto(`${dev!.server.url}/#/`);
  await page.evaluate("sessionStorage.clear()");
  await page.goto(`${dev!.server.url}/#/graphs/picker/run`);
  await page.getByRole("button", { name: "Start run" }).waitFor();
}

const savedOfGraph = async () =>
  (await client.assistants.search({ graphId: "picker" })).filter(
    (a) => a.metadata?.created_by !== "system",
  );

describe.skipIf(PAGE_TESTS_SKIPPED)("graphspec dev's page: saved assistants", () => {
  it("saves the run options and context, picks the assistant again, runs with it, deletes it", async () => {
    await openRun();
    await options().getByLabel("Model").selectOption("large");
    await options()
      .getByRole("group", { name: "Tools the models may call" })
      .getByLabel("add")
      .uncheck();
    await options().getByRole("group", { name: "Pause before" }).getByLabel("work").check();
    await page.getByRole("form", { name: "Context" }).getByLabel(/user/).fill("ada");
    await picker().getByLabel("Save the run options and context as").fill(NAME);
    await picker().getByRole("button", { name: "Save assistant" }).click();
    await picker().getByText(`Saved ${NAME}`).waitFor();

    const [saved, ...more] = await savedOfGraph();
    expect(more).toEqual([]);
    expect(saved).toMatchObject({
      name: NAME,
      config: { configurable: { model: "large", toolIds: ["shout"] }, interrupt_before: ["work"] },
      context: { user: "ada" },
    });
    await expect
      .poll(() => picker().getByLabel("Run with").inputValue(), { timeout: 15_000 })
      .toBe(saved!.assistant_id);

    const found: Record<string, unknown> = {};
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await s.shot(`picker-${scheme}`);
      const violations = await axeViolations(page);
      if (violations.length) found[scheme] = violations;
    }
    await page.emulateMedia({ colorScheme: "light" });
    expect(found).toEqual({});

    // A fresh form: picking the assistant fills the run options from its config.
    await openRun();
    // The graph list is the graphs: a saved assistant is not one.
    const graphLinks = page.getByRole("navigation", { name: "Graphs" }).getByRole("link");
    await graphLinks.first().waitFor();
    expect(await graphLinks.count()).toBe(1);
    await picker()
      .getByLabel("Run with")
      .selectOption({ label: `${NAME} (version 1)` });
    // The form is filled as the page renders the pick: waited for, not read at once.
    const soon = { timeout: 15_000 };
    await expect.poll(() => options().getByLabel("Model").inputValue(), soon).toBe("large");
    const tools = options().getByRole("group", { name: "Tools the models may call" });
    await expect.poll(() => tools.getByLabel("add").isChecked(), soon).toBe(false);
    await expect.poll(() => tools.getByLabel("shout").isChecked(), soon).toBe(true);
    const pause = options().getByRole("group", { name: "Pause before" });
    await expect.poll(() => pause.getByLabel("work").isChecked(), soon).toBe(true);
    await picker().getByText('"ada"').waitFor();
    // The assistant gives the required `user`: the Context form does not ask for it again, and
    // says where its value comes from.
    const user = page.getByRole("form", { name: "Context" }).getByLabel(/user/);
    expect(await user.inputValue()).toBe("");
    expect(await user.getAttribute("required")).toBeNull();
    expect(await page.locator(`#${await user.getAttribute("aria-describedby")}`).innerText()).toBe(
      `Given by the assistant “${NAME}”: "ada". Left empty, that applies; a value typed here is used instead.`,
    );

    // The run starts with the assistant's id, and its context.
    await page.getByRole("form", { name: "Input" }).getByLabel(/topic/).fill("sums");
    await page.getByRole("button", { name: "Start run" }).click();
    await page.locator('[role="status"][data-run-status="interrupted"]').waitFor();
    const thread = new URL(page.url().replace("#", "")).searchParams.get("thread") ?? "";
    const [run] = await client.runs.list(thread);
    expect(run?.assistant_id).toBe(saved!.assistant_id);
    expect((await client.threads.get(thread)).status).toBe("interrupted");

    await picker()
      .getByRole("button", { name: `Delete ${NAME}` })
      .click();
    await picker().getByText(`Deleted ${NAME}.`).waitFor();
    expect(await savedOfGraph()).toEqual([]);
    expect(await picker().getByLabel("Run with").inputValue()).toBe("");
    s.expectClean();
  });

  it("keeps the pick across a reload; saves a new version; runs an older one again", async () => {
    await openRun();
    await options().getByLabel("Model").selectOption("large");
    await page.getByRole("form", { name: "Context" }).getByLabel(/user/).fill("ada");
    await picker().getByLabel("Save the run options and context as").fill("Versioned");
    await picker().getByRole("button", { name: "Save assistant" }).click();
    await picker().getByText("Saved Versioned").waitFor();
    const [saved] = await savedOfGraph();

    // A reload comes back to the assistant picked, and to its options.
    await page.reload();
    await page.getByRole("button", { name: "Start run" }).waitFor();
    await expect
      .poll(() => picker().getByLabel("Run with").inputValue(), { timeout: 15_000 })
      .toBe(saved!.assistant_id);
    await expect
      .poll(() => options().getByLabel("Model").inputValue(), { timeout: 15_000 })
      .toBe("large");

    // The options changed on the form, saved as the assistant's version 2.
    const tools = options().getByRole("group", { name: "Tools the models may call" });
    await tools.getByLabel("add").uncheck();
    await picker().getByRole("button", { name: "Save as a new version of Versioned" }).click();
    await picker().getByText("Saved version 2 of Versioned").waitFor();
    const versions = await client.assistants.getVersions(saved!.assistant_id);
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(versions[0]!.config).toMatchObject({
      configurable: { model: "large", toolIds: ["shout"] },
    });
    // Its context is kept: the form left `user` empty, the assistant gave it.
    expect(versions[0]!.context).toEqual({ user: "ada" });
    // The version list is read again after the save: the picker shows 2 once it has it.
    const version = picker().getByLabel("Version of Versioned");
    await expect.poll(() => version.inputValue(), { timeout: 15_000 }).toBe("2");

    const found: Record<string, unknown> = {};
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await s.shot(`versions-${scheme}`);
      const violations = await axeViolations(page);
      if (violations.length) found[scheme] = violations;
    }
    await page.emulateMedia({ colorScheme: "light" });
    expect(found).toEqual({});

    // Version 1 chosen again: runs use it, and its options fill the form (every tool allowed).
    await version.selectOption({ label: "Version 1: model large" });
    await picker().getByText("Versioned runs with version 1 now.").waitFor();
    expect((await client.assistants.get(saved!.assistant_id)).config).toEqual({
      configurable: { model: "large" },
    });
    await expect.poll(() => tools.getByLabel("add").isChecked(), { timeout: 15_000 }).toBe(true);

    // A run with it; then the assistant deleted elsewhere: the thread's "Run from here" runs
    // with the graph's own assistant instead, and the tab forgets the pick.
    await page.getByRole("form", { name: "Input" }).getByLabel(/topic/).fill("sums");
    await page.getByRole("button", { name: "Start run" }).click();
    await page.locator('[role="status"][data-run-status="success"]').waitFor();
    const thread = new URL(page.url().replace("#", "")).searchParams.get("thread") ?? "";
    await client.assistants.delete(saved!.assistant_id);
    await page.goto(`${dev!.server.url}/#/threads/${thread}`);
    await page
      .locator("ol[aria-label='Checkpoints'] > li")
      .filter({ hasText: /next: work/ })
      .first()
      .getByRole("button", { name: "Run from here" })
      .click();
    await page.waitForURL(/#\/graphs\/picker\/run\?thread=/);
    await page.locator('[role="status"][data-run-status="success"]').waitFor();
    const [latest] = await client.runs.list(thread);
    const own = (await client.assistants.search({ graphId: "picker" })).find(
      (a) => a.metadata?.created_by === "system",
    );
    expect(latest?.assistant_id).toBe(own?.assistant_id);
    expect(await page.evaluate("sessionStorage.getItem('graphspec.assistant.picker')")).toBeNull();
    // The one failed request: the deleted assistant asked for (a 404, which Chromium logs too).
    expect(s.problems.filter((p) => !p.includes(`/assistants/${saved!.assistant_id}`))).toEqual([]);
  });
});
