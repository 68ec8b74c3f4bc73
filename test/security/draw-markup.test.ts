/**
 * Markup in a spec never becomes markup in `graphspec draw`'s output. A drawing of a spec from a
 * pull request ends up in a README (Mermaid on GitHub) or a page (SVG): a node description and a
 * route condition are written here as HTML that would run script if parsed (`<img onerror>`,
 * `<script>`, an SVG `onload`) and as Mermaid that would end the label and add a `click`
 * directive. Through the built CLI; the outputs are read by the real Mermaid (rendered) and by
 * Chromium's XML parser, and must hold no element, handler or link of the spec's making.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, PAGE_TESTS_SKIPPED } from "../support/browser.js";
import "../support/dom-parser.js";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin", "graphspec.js");
const MERMAID_JS = join(ROOT, "node_modules", "mermaid", "dist", "mermaid.min.js");

const HTML = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script><svg onload="window.__pwned=3"></svg>`;
/**
 * A CEL triple-quoted string (it may hold line breaks) that would end a quoted Mermaid label and
 * edge, then on a line of its own link a node to script, then hold HTML.
 */
const CONDITION = `state.note == '''"| n_look\nclick n_look "javascript:window.__pwned=4"\n%% ${HTML}'''`;
const str = JSON.stringify;
const SPEC = `version: 1
name: marked
state:
  note: { type: string, default: "" }
  seen: { type: boolean, default: false }
nodes:
  look: { kind: set, description: ${str(HTML)}, values: { seen: true } }
edges:
  - { from: START, to: look }
  - from: look
    route:
      - { when: ${str(CONDITION)}, to: END }
      - { default: END }
`;

let dir: string;
const draw = (format: string) => {
  const r = spawnSync(process.execPath, [BIN, "draw", "graphs/marked.yaml", "-f", format], {
    cwd: dir,
    encoding: "utf8",
  });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return r.stdout;
};

describe.skipIf(PAGE_TESTS_SKIPPED)("graphspec draw writes a spec's markup as text", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "graphspec-draw-markup-"));
    writeFileSync(join(dir, "package.json"), "{}");
    mkdirSync(join(dir, "graphs"));
    writeFileSync(join(dir, "graphs", "marked.yaml"), SPEC);
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.setContent("<!doctype html><html><body></body></html>");
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("Mermaid: the condition is one edge label, shown as written; no click, link, script or handler", async () => {
    const text = draw("mermaid");
    expect(text).not.toMatch(/^\s*click\b/m);
    await page.addScriptTag({ path: MERMAID_JS });
    const r = await page.evaluate(async (text) => {
      const mermaid = (
        globalThis as unknown as {
          mermaid: {
            initialize(c: object): void;
            render(id: string, t: string): Promise<{ svg: string }>;
          };
        }
      ).mermaid;
      mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
      const { svg } = await mermaid.render("marked", text);
      const doc = new DOMParser().parseFromString(svg, "text/html");
      return {
        edges: [...doc.querySelectorAll("g.edgeLabel .edgeLabel")].map((e) => e.textContent),
        made: doc.querySelectorAll("script, img, a, [onerror], [onload], [onclick]").length,
        pwned: (globalThis as { __pwned?: number }).__pwned,
      };
    }, text);
    expect(r.made).toBe(0);
    expect(r.pwned).toBeUndefined();
    // One line (its breaks as spaces), cut at 60 characters: the start of the condition as written.
    expect(r.edges).toContain(`${[...CONDITION.replace(/\s+/g, " ")].slice(0, 59).join("")}…`);
  });

  it("SVG: the description and the condition are text in titles; no element or handler of theirs", async () => {
    const svg = draw("svg");
    const r = await page.evaluate((svg) => {
      const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
      return {
        error: doc.querySelector("parsererror")?.textContent,
        made: doc.querySelectorAll("script, img, a, foreignObject, [onerror], [onload], [onclick]")
          .length,
        titles: [...doc.querySelectorAll("title")].map((t) => t.textContent),
      };
    }, svg);
    expect(r.error).toBeUndefined();
    expect(r.made).toBe(0);
    expect(r.titles.some((t) => t?.includes(HTML))).toBe(true);
    expect(r.titles.some((t) => t?.includes(`when ${CONDITION}`))).toBe(true);
  });
});
