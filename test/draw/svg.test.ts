/**
 * `graphspec draw --format svg` (src/draw/svg.ts): a well-formed XML document, read by headless
 * Chromium's XML parser (strict: any error gives a <parsererror>), in which the spec's words stay
 * words — a description or condition holding `<script>`, `]]>`, `&`, quotes or control characters
 * is text, never markup. Also: its colours are the page's (style.css), and the font check.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DrawableGraph } from "../../src/draw/drawable.js";
import { layoutGraph } from "../../src/draw/layout.js";
import { KIND_FILL, PALETTE } from "../../src/draw/palette.js";
import { hasFonts } from "../../src/draw/png.js";
import { toSvg, xmlText } from "../../src/draw/svg.js";
import { graphDrawing } from "../../src/server/graph-drawing.js";
import { loadSpec } from "../../src/spec/load.js";
import type { GraphSpec } from "../../src/spec/spec-types.generated.js";
import { launchBrowser, PAGE_TESTS_SKIPPED } from "../support/browser.js";

const ROOT = join(import.meta.dirname, "..", "..");
const FIXTURE = join(ROOT, "test/fixtures/drawing/everything.yaml");
const HOSTILE = "<script>alert(1)</script> ]]> & \"q\" 'a' <!-- x --> \u0001 \ud800 😀";

interface Parsed {
  error?: string;
  scripts: number;
  nodes: string[];
  titles: string[];
  texts: string[];
}

describe("SVG colours and fonts", () => {
  it("draws with the page's light colours (style.css section 5)", () => {
    const css = readFileSync(join(ROOT, "src/web/style.css"), "utf8");
    const light = css.slice(css.indexOf("/* ---- 5. The drawing"));
    const variable = (name: string) => new RegExp(`--${name}: (#[0-9a-f]{6});`).exec(light)?.[1];
    for (const kind of ["llm", "agent", "tools", "function", "interrupt", "subgraph", "set"])
      expect(KIND_FILL[kind], kind).toBe(variable(`k-${kind}`));
    expect(KIND_FILL.start).toBe(variable("k-start"));
    expect(PALETTE.stroke).toBe(variable("idle"));
  });

  it("finds font files only where there are some", () => {
    const dir = mkdtempSync(join(tmpdir(), "graphspec-fonts-"));
    try {
      expect(hasFonts([dir])).toBe(false);
      writeFileSync(join(dir, "readme.txt"), "");
      expect(hasFonts([dir, join(dir, "missing")])).toBe(false);
      writeFileSync(join(dir, "Some-Font.TTF"), "");
      expect(hasFonts([dir])).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(PAGE_TESTS_SKIPPED)("SVG read by a real XML parser (headless Chromium)", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage();
  }, 60_000);
  afterAll(() => browser?.close());

  const parse = (svg: string): Promise<Parsed> =>
    page.evaluate((svg) => {
      const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
      const error = doc.querySelector("parsererror")?.textContent ?? undefined;
      const all = (s: string) => [...doc.querySelectorAll(s)].map((e) => e.textContent ?? "");
      return {
        ...(error ? { error } : {}),
        scripts: doc.getElementsByTagName("script").length,
        nodes: [...doc.querySelectorAll("g.node")].map((e) => e.getAttribute("data-node-id") ?? ""),
        titles: all("title"),
        texts: all("text"),
      };
    }, svg);

  it("is well-formed for the fixture with every edge form, xray and not, one group per node", async () => {
    for (const xray of [0, 16]) {
      const graph = await graphDrawing(
        { path: FIXTURE, spec: (await loadSpec(FIXTURE)).data as GraphSpec },
        xray,
      );
      const layout = layoutGraph(graph);
      const r = await parse(toSvg(layout, "everything"));
      expect(r.error).toBeUndefined();
      expect(r.nodes).toEqual(layout.nodes.map((n) => n.id));
      expect(r.texts).toEqual(
        expect.arrayContaining(["state.urgent", "./tools.ts#next", "map state.items"]),
      );
    }
  });

  it("keeps a hostile description, condition and node name as text", async () => {
    const graph: DrawableGraph = {
      nodes: [
        {
          id: HOSTILE,
          type: "runnable",
          data: { id: "a", name: "a" },
          metadata: { kind: "llm", description: HOSTILE },
        },
        { id: "b", type: "runnable", data: { id: "b", name: "b" }, metadata: { kind: "set" } },
      ],
      edges: [
        {
          source: HOSTILE,
          target: "b",
          conditional: true,
          kind: "route",
          data: HOSTILE,
          when: HOSTILE,
        },
      ],
    };
    const r = await parse(toSvg(layoutGraph(graph), HOSTILE));
    expect(r.error).toBeUndefined();
    expect(r.scripts).toBe(0);
    // Characters XML cannot hold (U+0001, a lone surrogate) are left out; the rest is as written.
    const kept = HOSTILE.replace("\u0001", "").replace("\ud800", "");
    expect(r.titles.some((t) => t.includes(`${kept} (llm)\n${kept}`))).toBe(true);
    expect(r.titles.some((t) => t.includes(`when ${kept}`))).toBe(true);
    expect(r.texts).toContain(kept.slice(kept.lastIndexOf(":") + 1));
  });

  it("escapes any text into XML that parses back to it (fuzzed)", async () => {
    const markup = fc.constantFrom(
      "<",
      ">",
      "&",
      "&amp;",
      "]]>",
      '"',
      "'",
      "\r\n",
      "\r",
      "\t",
      "\u0000",
      "\ud800",
    );
    const samples = fc.sample(
      fc
        .array(fc.oneof(markup, fc.string({ unit: "binary", maxLength: 20 })), { maxLength: 8 })
        .map((p) => p.join("")),
      300,
    );
    const xmlChar = /[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
    const back = await page.evaluate(
      (items) =>
        items.map((x) => {
          const doc = new DOMParser().parseFromString(`<t a="${x}">${x}</t>`, "application/xml");
          if (doc.querySelector("parsererror")) return null;
          const t = doc.documentElement;
          return [t.textContent, t.getAttribute("a")];
        }),
      samples.map(xmlText),
    );
    samples.forEach((s, i) => {
      const kept = Array.from(s)
        .filter((ch) => xmlChar.test(ch))
        .join("");
      expect(back[i], JSON.stringify(s)).toEqual([kept, kept]);
    });
  });
});
