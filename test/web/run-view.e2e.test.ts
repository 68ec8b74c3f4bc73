/**
 * The run view as a daily tool (issue 27, items 4 and 5), in headless Chromium against the built
 * CLI: a 64-node graph's labels stay readable at 1,440 px and it zooms and pans; each step shows
 * the state its node got, what it wrote and what changed, and the run its output; a save that
 * renames a node redraws the run view (the renamed node has its box and lights up); a refused
 * save's diagnostics show there. axe-core, light and dark, on each.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAGE_TESTS_SKIPPED, type PageSession, seriousAxeViolations } from "../support/browser.js";
import { type DevPage, openDevPage } from "../support/dev-page.js";

/** 64 nodes: eight lanes of eight, all started at once — wide, as a fan-out graph is. */
function wideSpec(): string {
  const lanes = "abcdefgh".split("");
  const nodes = lanes.flatMap((l) =>
    [1, 2, 3, 4, 5, 6, 7, 8].map((i) => `  ${l}${i}: { kind: set, values: { n: 1 } }`),
  );
  const edges = lanes.flatMap((l) => [
    `  - { from: START, to: ${l}1 }`,
    ...[1, 2, 3, 4, 5, 6, 7].map((i) => `  - { from: ${l}${i}, to: ${l}${i + 1} }`),
    `  - { from: ${l}8, to: END }`,
  ]);
  return `version: 1
name: wide
description: Sixty-four nodes in eight lanes.
state:
  n: { type: integer, reducer: sum, default: 0 }
nodes:
${nodes.join("\n")}
edges:
${edges.join("\n")}
`;
}

const STEPS = `version: 1
name: counter
description: Two steps that count and note.
state:
  n: { type: integer, reducer: sum, default: 0 }
  note: { type: string, default: "" }
input: [note]
output: [n]
nodes:
  first: { kind: set, values: { n: 1 } }
  second: { kind: set, values: { n: 2, note: "\${{ state.note + ' seen' }}" } }
edges:
  - { from: START, to: first }
  - { from: first, to: second }
  - { from: second, to: END }
`;

/** The wide graph as a subgraph: opened in place, its 64 nodes are drawn in the parent's drawing. */
const MOUNTED = `version: 1
name: mounted
description: The wide graph as a subgraph.
state:
  n: { type: integer, reducer: sum, default: 0 }
nodes:
  lanes: { kind: subgraph, graph: wide.yaml }
edges:
  - { from: START, to: lanes }
  - { from: lanes, to: END }
`;

/** A map: one run of `draft` per topic, each seeing the state with its own `topic`. */
const MAPPER = `version: 1
name: mapper
description: Drafts each topic, in parallel.
state:
  topics: { type: array, items: { type: string }, default: ["alpha", "beta"] }
  topic: { type: string, default: "" }
  drafts: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  plan: { kind: set, values: { topic: "" } }
  draft: { kind: set, values: { drafts: "\${{ [state.topic + '!'] }}" } }
edges:
  - { from: START, to: plan }
  - from: plan
    map: { over: state.topics, to: draft, with: { topic: "\${{ item }}" } }
  - { from: draft, to: END }
`;

const THREE = `version: 1
name: three
description: Three set nodes in a row.
state:
  n: { type: integer, reducer: sum, default: 0 }
nodes:
  one: { kind: set, values: { n: 1 } }
  two: { kind: set, values: { n: 1 } }
  three: { kind: set, values: { n: 1 } }
edges:
  - { from: START, to: one }
  - { from: one, to: two }
  - { from: two, to: three }
  - { from: three, to: END }
`;

/** How long a poll waits for the server's side (a run, a reload): a guard against hangs, not a measure. */
const WAIT = { timeout: 15_000 };

let dev: DevPage;
let page: Page;
let s: PageSession;

beforeAll(async () => {
  if (PAGE_TESTS_SKIPPED) return;
  dev = await openDevPage("run-view", {
    files: {
      "graphs/wide.yaml": wideSpec(),
      "graphs/counter.yaml": STEPS,
      "graphs/mounted.yaml": MOUNTED,
      "graphs/mapper.yaml": MAPPER,
      "graphs/three.yaml": THREE,
    },
  });
  ({ page, session: s } = dev);
  await page.setViewportSize({ width: 1440, height: 900 });
}, 60_000);
afterAll(() => dev?.close());

/** The smallest on-screen size of the node names, in CSS px: font size times the SVG's scale. */
const smallestLabel = () =>
  page.evaluate(`(() => {
    const sizes = [...document.querySelectorAll("figure.drawing g.node text.name")].map((t) =>
      parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
    return sizes.length ? Math.min(...sizes) : 0;
  })()`) as Promise<number>;

const runStatus = () =>
  page.locator("[role=status][data-run-status]").getAttribute("data-run-status");
const nodeBox = (id: string) => page.locator(`figure.drawing g.node[data-node-id="${id}"]`);

async function axeLightAndDark(step: string): Promise<void> {
  const found: Record<string, unknown> = {};
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await s.shot(`${step}-${scheme}`);
    const violations = await seriousAxeViolations(page);
    if (violations.length) found[scheme] = violations;
  }
  await page.emulateMedia({ colorScheme: "light" });
  expect(found).toEqual({});
}

describe.skipIf(PAGE_TESTS_SKIPPED)("the run view", () => {
  it("draws 64 nodes with readable labels at 1,440 px, and zooms, fits and pans", async () => {
    await page.goto(`${dev.server.url}/#/graphs/wide/run`);
    await nodeBox("h8").waitFor();
    expect(await page.locator("figure.drawing g.node").count()).toBe(66);
    // Fitted to the panel's width, but not below 11 px: the area scrolls instead.
    expect(await smallestLabel()).toBeGreaterThanOrEqual(11);
    const area = page.getByRole("group", { name: /wide, drawn/ });
    const overflow = (await page.evaluate(
      `(() => { const el = document.querySelector("figure.drawing .drawing-scroll"); return el.scrollWidth - el.clientWidth; })()`,
    )) as number;
    expect(overflow).toBeGreaterThan(0);
    // The keyboard pans it: the area takes focus, the arrow keys scroll it.
    await area.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect
      .poll(
        () => page.evaluate(`document.querySelector("figure.drawing .drawing-scroll").scrollLeft`),
        WAIT,
      )
      .toBeGreaterThan(0);

    // The whole graph, as an overview: smaller than readable; zoom in brings it back.
    await page.getByRole("button", { name: "Fit whole graph" }).click();
    const whole = await smallestLabel();
    expect(whole).toBeLessThan(11);
    await page.getByRole("button", { name: "Zoom in" }).click();
    expect(await smallestLabel()).toBeGreaterThan(whole);
    await page.getByRole("button", { name: "Actual size" }).click();
    // 1:1: the layout's sizes (START and END's names are the smallest, 12 px).
    expect(Math.round(await smallestLabel())).toBe(12);
    await page.getByRole("button", { name: "Zoom out" }).click();
    expect(await smallestLabel()).toBeLessThan(12);
    await page.getByRole("button", { name: "Fit width" }).click();
    expect(await smallestLabel()).toBeGreaterThanOrEqual(11);
    await axeLightAndDark("wide");
    s.expectClean();
  });

  it("keeps an opened subgraph's labels readable", async () => {
    await page.goto(`${dev.server.url}/#/graphs/mounted/run`);
    await page.getByRole("button", { name: "Expand subgraph lanes" }).click();
    await nodeBox("lanes:h8").waitFor();
    expect(await smallestLabel()).toBeGreaterThanOrEqual(11);
    await page.getByRole("button", { name: "Collapse subgraph lanes" }).click();
    await expect.poll(() => nodeBox("lanes:h8").count(), WAIT).toBe(0);
    await axeLightAndDark("subgraph");
    s.expectClean();
  });

  it("shows each step's input, update and changes, and the run's output", async () => {
    await page.goto(`${dev.server.url}/#/graphs/counter/run`);
    const output = page.getByRole("region", { name: "Output" });
    await output.getByText("Shown when the run finishes.").waitFor();
    await page.getByRole("form", { name: "Input" }).getByLabel("note").fill("hi");
    await page.getByRole("button", { name: "Start run" }).click();
    await expect.poll(runStatus, WAIT).toBe("success");

    const steps = page.getByRole("region", { name: "Steps" });
    const second = steps.getByRole("button", { name: "Step 2: second" });
    await second.click();
    expect(await second.getAttribute("aria-pressed")).toBe("true");
    const detail = steps.getByRole("region", { name: "Step 2: second" });
    const text = await detail.innerText();
    // What it got (n: 1 after `first`), what it wrote (n: 2, the note), the sum it made (3).
    const [got, rest] = text.split("Update");
    expect(got).toMatch(/n\s*1/);
    expect(got).toMatch(/note\s*"hi"/);
    const [update, after] = rest!.split("Changes");
    expect(update).toMatch(/n\s*2/);
    expect(update).toContain('"hi seen"');
    const changes = detail.getByRole("table", { name: "Changes" });
    expect(await changes.getByRole("row", { name: /^n changed/ }).innerText()).toMatch(
      /n\s+changed\s+1\s+3/,
    );
    expect(after).toMatch(/State after[\s\S]*n\s*3/);
    // Its node in the drawing is marked.
    expect(await nodeBox("second").getAttribute("class")).toContain("selected");

    // A node clicked in the drawing selects its step.
    await nodeBox("first").click();
    await steps.getByRole("region", { name: "Step 1: first" }).waitFor();
    expect(await nodeBox("first").getAttribute("class")).toContain("selected");

    // The output: the final state's `output:` keys (n), not the rest (note).
    const out = await output.innerText();
    expect(out).toMatch(/n\s*3/);
    expect(out).not.toContain("note");
    await axeLightAndDark("steps");
    s.expectClean();
  });

  it("shows each run of a map with the input it got, and what it wrote", async () => {
    await page.goto(`${dev.server.url}/#/graphs/mapper/run`);
    await page.getByRole("button", { name: "Start run" }).click();
    await expect.poll(runStatus, WAIT).toBe("success");
    const steps = page.getByRole("region", { name: "Steps" });
    await steps.getByRole("button", { name: "Step 2: draft ×2" }).click();
    const detail = steps.getByRole("region", { name: "Step 2: draft ×2" });
    const [input, update] = (await detail.innerText()).split("Update");
    // Each run's own topic, which the state before the step (topic "") does not have.
    expect(input).toMatch(/topic\s*"alpha"[\s\S]*topic\s*"beta"/);
    expect(update).toMatch(/"alpha!"[\s\S]*"beta!"/);
    await axeLightAndDark("map");
    s.expectClean();
  });

  it("draws a node renamed while the run view is open, and lights it up", async () => {
    await page.goto(`${dev.server.url}/#/graphs/three/run`);
    await nodeBox("two").waitFor();
    dev.server.write(
      "graphs/three.yaml",
      THREE.replace("  two: {", "  middle: {")
        .replaceAll("two }", "middle }")
        .replace("from: two", "from: middle"),
    );
    await nodeBox("middle").waitFor();
    expect(await nodeBox("two").count()).toBe(0);
    await page.getByRole("button", { name: "Start run" }).click();
    await expect.poll(runStatus, WAIT).toBe("success");
    await expect.poll(() => nodeBox("middle").getAttribute("data-status"), WAIT).toBe("done");
    s.expectClean();
  });

  it("says a save was refused, with its diagnostics, while the run view is open", async () => {
    await page.goto(`${dev.server.url}/#/graphs/three/run`);
    await nodeBox("one").waitFor();
    const view = page.getByRole("region", { name: /^Run three/ });
    dev.server.write("graphs/three.yaml", THREE.replace("to: END }", "to: ENDD }"));
    const diagnostics = view.getByRole("region", { name: "Diagnostics" });
    await diagnostics.getByText(/three\.yaml:\d+:\d+/).waitFor();
    expect(await diagnostics.innerText()).toMatch(/refused[\s\S]*ENDD/);
    await axeLightAndDark("refused");
    // The fix: the note goes.
    dev.server.write("graphs/three.yaml", THREE);
    await expect
      .poll(() => view.getByRole("region", { name: "Diagnostics" }).count(), WAIT)
      .toBe(0);
    s.expectClean();
  });
});
