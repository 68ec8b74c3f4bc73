/**
 * Fork with edited state from earlier checkpoints of every example graph, from the page alone
 * and offline (issue 27, "done when"): each graph of graphs/ is run on the run view from a fixture
 * test's scripts (its interrupts answered with the page's controls), then, on the thread's page,
 * its first step's checkpoint is forked with a value of its input edited in the "Fork from here"
 * dialog, and the fork is run on with "Run from here" — the same stand-in and the same answers —
 * to its end: it finished, and the thread's state holds the edited value where the original was;
 * the timeline shows the branch. Then the last checkpoint something ran after is forked the same
 * way and run on: its later steps take the scripts' turns they took the first time, so the output
 * is the one the fixture expects.
 *
 * The graphs and cases come from graphs/ and the fixtures, as in page-every-example: a new example
 * is forked without this file changing. axe-core in light and dark on the last fork's thread page.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { axeViolations, PAGE_TESTS_SKIPPED, type PageSession } from "../support/browser.js";
import type { DevServer } from "../support/dev-server.js";
import {
  answerAll,
  answer as answerOne,
  examples,
  expectOutputShown,
  type FixtureTest,
  type Json,
  openExamplesPageForFile,
  openRun,
  settled,
  startCase,
} from "../support/example-page.js";

const EXAMPLES = examples();

let server: DevServer;
let s: PageSession;
let page: Page;
openExamplesPageForFile("fork-every-example", (dev) => {
  ({ server, session: s, page } = dev);
});

/**
 * The first fixture test that runs to its end with no choice but its stand-in (no model chosen,
 * no tools left out, no failure expected): the one to fork.
 */
const forkable = (tests: FixtureTest[]) =>
  tests.find((t) => !t.expect?.status && !t.model && !t.allow_tools);

/** The edit: what it does to the checkpoint's values, the channel it edits and what it shows. */
type Edit = { apply: (values: Json) => Json; key: string; shown: string };

/**
 * What the fork edits: the test's first string input (`topic`, `ticket`, …), else the text of the
 * first message of its `messages` — each with " (edited)" added.
 */
function editOf(t: FixtureTest): Edit {
  const input = t.input ?? {};
  const key = Object.keys(input).find((k) => typeof input[k] === "string");
  if (key) {
    const after = `${input[key] as string} (edited)`;
    return { key, shown: JSON.stringify(after), apply: (v) => ({ ...v, [key]: after }) };
  }
  const first = (input.messages as { content: string }[] | undefined)?.[0]?.content;
  if (typeof first !== "string") throw new Error(`${t.name}: nothing in its input to edit`);
  const after = `${first} (edited)`;
  return {
    key: "messages",
    shown: `human${after}`,
    apply: (v) => {
      const [m, ...rest] = v.messages as Json[];
      // A message as the server gives it, plain or as LangChain serializes it.
      const edited =
        m && typeof m.kwargs === "object"
          ? { ...m, kwargs: { ...(m.kwargs as Json), content: after } }
          : { ...m, content: after };
      return { ...v, messages: [edited, ...rest] };
    },
  };
}

const checkpoints = () => page.locator("ol[aria-label='Checkpoints'] > li");
/** What the thread's State region shows for channel `key` (a message list: its first message). */
const shownOf = async (key: string) => {
  const channel = page
    .getByRole("region", { name: "State" })
    .locator(".state-values > div")
    .filter({ has: page.locator("dt", { hasText: new RegExp(`^${key}$`) }) })
    .locator("dd");
  const first = channel.getByRole("listitem").first();
  const text = (await first.count()) && key === "messages" ? first : channel;
  // Its text, not as styled (a role is shown in capitals).
  return ((await text.textContent()) ?? "").replace(/\s+/g, "");
};

/**
 * On the thread's page: checkpoint `checkpointId` (of step `step`) forked with `edit` in the "Fork
 * from here" dialog, then the fork run on with "Run from here", each interrupt on the way answered
 * from `then` in turn, to its end.
 */
async function forkAndRunOn(
  thread: string,
  checkpointId: string,
  step: number,
  edit: Edit,
  then: NonNullable<FixtureTest["then"]>,
) {
  await page.goto(`${server.url}/#/threads/${thread}`);
  const from = page.locator(
    `ol[aria-label='Checkpoints'] > li[data-checkpoint-id="${checkpointId}"]`,
  );
  await from.getByRole("button", { name: "Fork from here" }).click();
  const dialog = page.getByRole("dialog", { name: `Fork from step ${step}` });
  const values = dialog.getByLabel("Values (JSON)");
  await values.fill(JSON.stringify(edit.apply(JSON.parse(await values.inputValue()))));
  await dialog.getByRole("button", { name: "Fork" }).click();
  await dialog.waitFor({ state: "detached" });
  // The fork is the current checkpoint, a branch from the one forked.
  const fork = checkpoints().first();
  await expect
    .poll(() => fork.innerText())
    .toMatch(new RegExp(`\\(current\\).*branches from step ${step}\\b`, "s"));
  await fork.getByRole("button", { name: "Run from here" }).click();
  await page.waitForURL(/#\/graphs\/.*\/run\?thread=/);
  for (const answer of then) {
    const now = await settled(page);
    if (now !== "interrupted") break;
    await answerOne(page, answer.resume);
    await page.locator('.run-view [role="status"][data-run-status="interrupted"]').waitFor({
      state: "detached",
    });
  }
  expect(await settled(page)).toBe("success");
}

describe.skipIf(PAGE_TESTS_SKIPPED)("graphspec dev's page forks every example graph", () => {
  it.each([...EXAMPLES.keys()])(
    "%s: forked from its first and its last step with an edited input, run on to the end",
    async (graph) => {
      const { fixture } = EXAMPLES.get(graph)!;
      const t = forkable(fixture?.tests ?? []);
      expect(t, `${graph} has a fixture test that runs to its end`).toBeDefined();
      const standIn = `Scripts of “${t!.name}” (graphs/${graph}.test.yaml)`;
      try {
        // The run, from the page: its stand-in is offered only for a graph with models.
        await openRun(page, server.url, graph);
        const offered = await page.getByLabel("Models answer from").count();
        await startCase(page, server.url, graph, offered ? standIn : "", fixture, t);
        expect(await answerAll(page, t!.then)).toBe("success");
        const thread = new URL(page.url().replace("#", "")).searchParams.get("thread")!;

        // The run's checkpoints: its first step's, and the last one something ran after.
        await page.goto(`${server.url}/#/threads/${thread}`);
        const first = checkpoints().filter({ hasText: /^\s*Step 0\s+loop/ });
        await first.waitFor();
        const firstId = (await first.getAttribute("data-checkpoint-id"))!;
        const late = checkpoints()
          .filter({ hasText: /\bloop\b/ })
          .filter({ hasNotText: /next: nothing/ })
          .first();
        const lateId = (await late.getAttribute("data-checkpoint-id"))!;
        const lateStep = Number(/Step (\d+)/.exec(await late.innerText())?.[1]);
        const edit = editOf(t!);

        // The first step's checkpoint, forked with the edit, run on as the first run was.
        await forkAndRunOn(thread, firstId, 0, edit, t!.then ?? []);
        await page.goto(`${server.url}/#/threads/${thread}`);
        await expect.poll(() => shownOf(edit.key)).toBe(edit.shown.replace(/\s+/g, ""));
        expect(await checkpoints().first().innerText()).toMatch(/\(current\).*next: nothing/s);

        // The last checkpoint something ran after, forked with the same edit: the steps after
        // it take the model answers they took (the scripts go on from where it stood), so the
        // output is the one the fixture expects; an interrupt still ahead gets the last answer.
        await forkAndRunOn(thread, lateId, lateStep, edit, (t!.then ?? []).slice(-1));
        await expectOutputShown(page, t);
      } catch (e) {
        await s.shot(`${graph}-fork-failed`);
        throw new Error(`${graph}: ${(e as Error).message}`);
      }
    },
    180_000,
  );

  it("shows a forked thread with no axe-core violation, light or dark; no page error", async () => {
    const found: Record<string, unknown> = {};
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await s.shot(`forked-${scheme}`);
      const violations = await axeViolations(page);
      if (violations.length) found[scheme] = violations;
    }
    await page.emulateMedia({ colorScheme: "light" });
    expect(found).toEqual({});
    s.expectClean();
  });
});
