/**
 * Every example graph run from graphspec dev's page alone, offline (issue 27, "done when"): for each
 * graph the page lists, each of its fixture's tests and each recording beside it is chosen in
 * "Models answer from", the Input and Context forms are typed from the fixture, the run options it
 * names (a model, the tools allowed) are set in the Run options form, the run is started, each
 * interrupt is answered with the page's own controls as the fixture's `then` says (yes/no, approve,
 * edit, reject with a message), and the run's end is checked: finished, or the failure the fixture
 * expects shown with its code and its hint. Keyboard and clicks only — no API call stands in for
 * the page. One dev server and one browser for the whole file.
 *
 * The list of graphs comes from the page, the cases from the fixtures: a new example graph, test or
 * recording is run without this file changing. A fixture test the page cannot express is named
 * with the reason (`UNREACHABLE`), so a skip is never silent.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, PAGE_TESTS_SKIPPED, type PageSession } from "../support/browser.js";
import type { DevServer } from "../support/dev-server.js";
import {
  answerAll,
  examples,
  expectOutputShown,
  type Fixture,
  type FixtureTest,
  modelOption,
  openExamplesPageForFile,
  openRun as openRunOf,
  startCase,
} from "../support/example-page.js";

const EXAMPLES = examples();

/**
 * Why a fixture test cannot be run from the page, if it cannot: the page sends only what its
 * typed forms and its choices allow.
 */
function unreachable(t: FixtureTest, models: string[][]): string | undefined {
  if (t.expect?.error?.phase === "input")
    return "its context has a value of the wrong type, which the page's typed form does not send";
  if (t.model && !modelOption(t.model, models))
    return `it asks for model ${t.model}, which the page does not offer (not in the spec's allow)`;
  return undefined;
}

let server: DevServer;
let s: PageSession;
let page: Page;
openExamplesPageForFile("every-example", (dev) => {
  ({ server, session: s, page } = dev);
});

const standInControl = () => page.getByLabel("Models answer from");
const openRun = (graph: string) => openRunOf(page, server.url, graph);

/** A line of a stack trace (`    at fn (/path/file.ts:17:23)`): never shown on the page. */
const STACK_LINE = /\n\s+at .*:\d+:\d+\)?/;

/** The run view's text holds no stack trace (a tool's error, a failure): messages and hints only. */
async function expectNoStackTrace() {
  const text = await page.locator(".run-view").innerText();
  expect(text.match(STACK_LINE)?.[0], "a stack trace on the page").toBeUndefined();
}

/** Runs one case on the page and checks how it ended. */
async function runCase(
  graph: string,
  standIn: string,
  fixture: Fixture | undefined,
  t: FixtureTest | undefined,
  checkOutput: boolean,
  models: string[][],
) {
  await startCase(page, server.url, graph, standIn, fixture, t, models);
  const failure = t?.expect?.status === "failed" ? t.expect.error : undefined;
  if (failure) {
    // Refused before it ran (the form's note) or failed as it ran (the run's note): either way
    // the code and the hint are shown.
    const note = page
      .locator(".run-view [role=alert]")
      .filter({ hasText: failure.code ?? "" })
      .first();
    await note.waitFor();
    const text = await note.innerText();
    expect(text).toContain(failure.code);
    expect(await note.locator(".help").innerText()).not.toBe("");
    await expectNoStackTrace();
    return;
  }
  // Each interrupt answered as the fixture's `then` says, then the run's end.
  expect(await answerAll(page, t?.then)).toBe("success");
  await expectNoStackTrace();
  if (!checkOutput) return;
  const expected = await expectOutputShown(page, t);
  // The conversation the fixture expects is the Messages panel's too: each message's text.
  const messages = (expected?.output as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages)) return;
  const panel =
    (await page.getByRole("region", { name: "Messages" }).textContent())?.replace(/\s+/g, " ") ??
    "";
  for (const m of messages) {
    const content = (m as { content?: unknown }).content;
    if (typeof content === "string" && content)
      expect(panel, "the Messages panel shows the conversation").toContain(
        content.replace(/\s+/g, " "),
      );
  }
}

describe.skipIf(PAGE_TESTS_SKIPPED)("graphspec dev's page runs every example graph", () => {
  it("lists exactly the example graphs of graphs/", async () => {
    await page.goto(`${server.url}/#/`);
    const list = page.getByRole("navigation", { name: "Graphs" });
    await list.getByRole("link").first().waitFor();
    const listed = await list
      .getByRole("link")
      .evaluateAll((links) =>
        links.map((a) => decodeURIComponent((a.getAttribute("href") ?? "").split("/")[2] ?? "")),
      );
    expect(new Set(listed)).toEqual(new Set(EXAMPLES.keys()));
  });

  it.each([...EXAMPLES.keys()])(
    "%s: every fixture test and recording, from the page alone",
    async (graph) => {
      const { fixture } = EXAMPLES.get(graph)!;
      await openRun(graph);
      const offered = (await standInControl().count())
        ? await standInControl()
            .locator("option")
            .evaluateAll((os) => os.map((o) => o.textContent ?? ""))
        : [];
      const models = (await page.locator("#run-model option").count())
        ? await page
            .locator("#run-model option")
            .evaluateAll((os) => os.map((o) => [(o as { value: string }).value, o.textContent]))
        : [];
      const cases: { standIn: string; test: FixtureTest | undefined; checkOutput: boolean }[] = [];
      const skipped: string[] = [];
      const used = new Set<string>();
      for (const t of fixture?.tests ?? []) {
        // The test's own scripts or recording, as the control names it.
        const label = offered.find((o) => o.includes(`“${t.name}”`));
        const why =
          unreachable(t, models) ??
          (offered.length && !label ? "the page offers no stand-in for it" : undefined);
        if (why) {
          skipped.push(`${t.name}: ${why}`);
          continue;
        }
        if (label) used.add(label);
        // A graph with no model offers no stand-in: its test runs as it is.
        cases.push({ standIn: label ?? "", test: t, checkOutput: true });
      }
      // A recording made from no test of the fixture: run with the first test's input.
      for (const label of offered.filter((o) => o.startsWith("Recording") && !used.has(o)))
        cases.push({ standIn: label, test: fixture?.tests[0], checkOutput: false });
      expect(cases.length, "a graph with nothing to run").toBeGreaterThan(0);
      for (const c of cases) {
        try {
          await runCase(graph, c.standIn, fixture, c.test, c.checkOutput, models);
        } catch (e) {
          await s.shot(`${graph}-failed`);
          throw new Error(`${graph}, ${c.standIn || "no stand-in"}: ${(e as Error).message}`);
        }
      }
      // The last run's view, finished: no axe-core violation of any impact, light or dark.
      const found: Record<string, unknown> = {};
      for (const scheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await s.shot(`${graph}-${scheme}`);
        const violations = await axeViolations(page);
        if (violations.length) found[scheme] = violations;
      }
      await page.emulateMedia({ colorScheme: "light" });
      expect(found).toEqual({});
      if (skipped.length)
        console.info(`${graph}: not run from the page:\n  ${skipped.join("\n  ")}`);
    },
    180_000,
  );

  it("had no page error on the way", () => {
    s.expectClean();
  });
});
