/**
 * The repository's example graphs (graphs/) and their fixtures, driven on graphspec dev's run
 * view with the page's own controls: what the every-example page tests share — the graphs and
 * their fixture tests, a fresh run form, the forms typed from a fixture, a run's end, an
 * interrupt answered as a fixture's `then` says.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { parse } from "yaml";
import { PAGE_TESTS_SKIPPED } from "./browser.js";
import { type DevPage, openDevPage } from "./dev-page.js";

export const GRAPHS_DIR = join(import.meta.dirname, "..", "..", "graphs");

export type Json = Record<string, unknown>;
export interface FixtureTest {
  name: string;
  input?: Json;
  context?: Json;
  model?: string;
  allow_tools?: string[];
  then?: { resume: unknown; expect?: { output?: unknown } }[];
  expect?: { status?: string; error?: { code?: string; phase?: string; field?: string } };
}
export interface Fixture {
  context?: Json;
  tests: FixtureTest[];
}

/**
 * For the whole test file: `graphspec dev` over graphs/ in headless Chromium, session `name`,
 * started before its tests and closed after them (nothing started when page tests are skipped).
 * Offline: no provider key and the provider URL on a closed port, so nothing reaches a real model
 * and the page's stand-ins answer. `opened` gets the page once it is up.
 */
export function openExamplesPageForFile(name: string, opened: (dev: DevPage) => void): void {
  let dev: DevPage | undefined;
  beforeAll(async () => {
    if (PAGE_TESTS_SKIPPED) return;
    dev = await openDevPage(name, {
      repoGraphs: true,
      env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" },
    });
    opened(dev);
  }, 60_000);
  afterAll(() => dev?.close());
}

/** The graph files of graphs/ by graph name, and each one's fixture (`<file>.test.yaml`). */
export function examples(): Map<string, { fixture: Fixture | undefined }> {
  const found = new Map<string, { fixture: Fixture | undefined }>();
  for (const file of readdirSync(GRAPHS_DIR)) {
    if (!/\.ya?ml$/.test(file) || file.includes(".test.")) continue;
    const spec = parse(readFileSync(join(GRAPHS_DIR, file), "utf8")) as { name: string };
    const testFile = join(GRAPHS_DIR, file.replace(/\.ya?ml$/, ".test.yaml"));
    let fixture: Fixture | undefined;
    try {
      fixture = parse(readFileSync(testFile, "utf8")) as Fixture;
    } catch {
      fixture = undefined;
    }
    found.set(spec.name, { fixture });
  }
  return found;
}

/** The run view's status line. */
export const runStatus = (page: Page) => page.locator('.run-view [role="status"][data-run-status]');

/** A fresh run form for `graph`: a page load, nothing kept from an earlier case. */
export async function openRun(page: Page, url: string, graph: string) {
  await page.goto("about:blank");
  await page.goto(`${url}/#/`);
  await page.evaluate("sessionStorage.clear()");
  await page.goto(`${url}/#/graphs/${graph}/run`);
  await page.getByRole("button", { name: "Start run" }).waitFor();
}

/** Types `values` into the form named `form`: text as typed, lists and objects as JSON. */
export async function fill(page: Page, form: "Input" | "Context", values: Json) {
  for (const [key, value] of Object.entries(values)) {
    const field = page
      .getByRole("form", { name: form })
      .getByLabel(new RegExp(`^\\s*${key}\\s*\\*?\\s*$`));
    if (typeof value === "boolean") await field.setChecked(value);
    else await field.fill(typeof value === "string" ? value : JSON.stringify(value));
  }
}

/** The Model control's value for `model`, an entry's name or its `provider:name` ([value, label]s). */
export const modelOption = (model: string, models: string[][]) =>
  models.find(([value, label]) => value && (value === model || label?.endsWith(`(${model})`)))?.[0];

/**
 * Starts fixture test `t` of `graph` on a fresh run form: the stand-in chosen by its label (""
 * none), the Input and Context forms typed from the fixture, the model and the tools it names set
 * in Run options (`models`: the Model control's [value, label]s), then Start run.
 */
export async function startCase(
  page: Page,
  url: string,
  graph: string,
  standIn: string,
  fixture: Fixture | undefined,
  t: FixtureTest | undefined,
  models: string[][] = [],
) {
  await openRun(page, url, graph);
  if (standIn) await page.getByLabel("Models answer from").selectOption({ label: standIn });
  await fill(page, "Input", t?.input ?? {});
  await fill(page, "Context", { ...(fixture?.context ?? {}), ...(t?.context ?? {}) });
  const options = page.getByRole("group", { name: "Run options" });
  if (t?.model) await options.getByLabel("Model").selectOption(modelOption(t.model, models) ?? "");
  if (t?.allow_tools) {
    const tools = options.getByRole("group", { name: "Tools the models may call" });
    for (const box of await tools.getByRole("checkbox").all()) {
      const name = await box.locator("..").innerText();
      await box.setChecked(t.allow_tools.includes(name.trim()));
    }
  }
  await page.getByRole("button", { name: "Start run" }).click();
}

/** The run's status once it stops running: success, interrupted, error or cancelled. */
export async function settled(page: Page): Promise<string> {
  await page
    .locator('.run-view [role="status"][data-run-status]:not([data-run-status="running"])')
    .waitFor();
  // A refusal before the run began leaves no status: it shows where the form is.
  return (await runStatus(page).getAttribute("data-run-status")) ?? "";
}

/** Answers the one pending interrupt with the page's controls, as `resume` says. */
export async function answer(page: Page, resume: unknown) {
  const form = page.getByRole("form", { name: "Answer interrupt" }).first();
  await form.waitFor();
  const decisions =
    resume && typeof resume === "object" && Array.isArray((resume as Json).decisions)
      ? ((resume as Json).decisions as Json[])
      : undefined;
  if (!decisions) {
    // A question: a yes/no is the "Yes" box, any other value typed as the answer.
    if (typeof resume === "boolean") await form.getByLabel("Yes").setChecked(resume);
    else
      await form
        .getByLabel("Answer")
        .fill(typeof resume === "string" ? resume : JSON.stringify(resume));
    await form.getByRole("button", { name: "Resume" }).click();
    return;
  }
  const actions = form.getByRole("group");
  for (const [n, d] of decisions.entries()) {
    const action = actions.nth(n);
    if (d.type === "approve") await action.getByRole("button", { name: "Approve" }).click();
    if (d.type === "edit") {
      await action.getByRole("button", { name: "Edit" }).click();
      const edited = d.editedAction as { args: unknown };
      await action.getByLabel(/^Arguments of /).fill(JSON.stringify(edited.args));
    }
    if (d.type === "reject") {
      await action.getByRole("button", { name: "Reject" }).click();
      if (typeof d.message === "string")
        await action.getByLabel("Message to the model").fill(d.message);
    }
  }
  // One approval of one call answers at once; anything else is sent with Resume.
  const resumeButton = form.getByRole("button", { name: "Resume" });
  if (await resumeButton.count()) await resumeButton.click();
}

/**
 * Answers each interrupt of `then` in turn, then waits for the run to end; its status. Resume
 * starts a new run: each answer waits for the paused state to go before reading the next end.
 */
export async function answerAll(page: Page, then: FixtureTest["then"]): Promise<string> {
  for (const step of then ?? []) {
    const now = await settled(page);
    if (now !== "interrupted") throw new Error(`the run should wait for an answer: it is ${now}`);
    await answer(page, step.resume);
    await page.locator('.run-view [role="status"][data-run-status="interrupted"]').waitFor({
      state: "detached",
    });
  }
  return settled(page);
}

/**
 * The strings in a value, at any depth: the texts the page shows. A tool message's `status` and
 * `artifact` are not shown as such (its text says it failed).
 */
export const textsOf = (v: unknown): string[] =>
  typeof v === "string"
    ? [v]
    : v && typeof v === "object"
      ? Object.entries(v).flatMap(([k, x]) =>
          k === "status" || k === "artifact" ? [] : textsOf(x),
        )
      : [];

/**
 * The Output region, once the run's last checkpoint is read, shows each text fixture test `t`
 * expects of the output (after its last answer, what that step expects): in its text content —
 * folded lists included — a string in a JSON tree quoted; never a step's state. The output
 * expected.
 */
export async function expectOutputShown(page: Page, t: FixtureTest | undefined) {
  await page.locator('[aria-label="Output"]:not([aria-busy="true"]) .state-values').waitFor();
  const shown =
    (await page.getByRole("region", { name: "Output" }).textContent())?.replace(/\s+/g, " ") ?? "";
  const expected = (t?.then?.at(-1)?.expect ?? t?.expect) as { output?: unknown } | undefined;
  for (const text of textsOf(expected?.output)) {
    const one = text.replace(/\s+/g, " ");
    expect(
      shown.includes(one) || shown.includes(JSON.stringify(one)),
      `the output shows ${JSON.stringify(one)}: ${shown}`,
    ).toBe(true);
  }
  return expected;
}
