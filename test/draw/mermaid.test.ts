/**
 * `graphspec draw`'s Mermaid text (src/draw/mermaid.ts) read by the real Mermaid: its parser and
 * renderer need a DOM, so they run in the suite's headless Chromium (test/support/browser.ts),
 * loaded from the `mermaid` package's own bundle. Every drawing parses, renders, and shows the
 * spec's words as written — for the example graphs, the fixture with every edge form, and for
 * node names and conditions made up by fast-check (quotes, `|`, `<>`, `#`, newlines, any unicode).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DrawableGraph } from "../../src/draw/drawable.js";
import { mermaidText, toMermaid } from "../../src/draw/mermaid.js";
import { shortLabel } from "../../src/draw/short-label.js";
import { graphDrawing } from "../../src/server/graph-drawing.js";
import { loadSpec } from "../../src/spec/load.js";
import type { GraphSpec } from "../../src/spec/spec-types.generated.js";
import { launchBrowser, PAGE_TESTS_SKIPPED } from "../support/browser.js";

const ROOT = join(import.meta.dirname, "..", "..");
const MERMAID_JS = join(ROOT, "node_modules", "mermaid", "dist", "mermaid.min.js");

const drawing = async (path: string, xray = 0) =>
  graphDrawing({ path, spec: (await loadSpec(path)).data as GraphSpec }, xray);

/** What a label shows: whitespace runs as one space, no control characters, cut with an ellipsis. */
const shown = (text: string, max = 60) =>
  shortLabel(
    Array.from(text.replace(/\s+/g, " ").trim(), (ch) => {
      const c = ch.codePointAt(0)!;
      return c < 0x20 || (c >= 0x7f && c < 0xa0) || (c >= 0xd800 && c < 0xe000) ? "\ufffd" : ch;
    }).join(""),
    max,
  );

interface Rendered {
  error?: string;
  nodes: string[];
  edges: string[];
  scripts: number;
}

describe("Mermaid text: ids and labels", () => {
  it("makes its own ids: a node named end, or with spaces, dashes, colons, quotes, stays one node each", () => {
    const names = ["end", "a b", "a-b", "a_b", 'q"x', "sub:inner", "graph", "o", "x"];
    const graph: DrawableGraph = {
      nodes: names.map((id) => ({
        id,
        type: "runnable",
        data: { id, name: id },
        metadata: { kind: "set" },
      })),
      edges: names.slice(1).map((id, i) => ({ source: names[i]!, target: id, conditional: false })),
    };
    const text = toMermaid(graph);
    const ids = [...text.matchAll(/^ {2}(\S+?)\["/gm)].map((m) => m[1]!);
    expect(ids).toHaveLength(names.length);
    expect(new Set(ids).size).toBe(names.length);
    for (const id of ids) expect(id).toMatch(/^n_[A-Za-z0-9_]+$/);
  });

  it("cuts a long label at 60 characters with an ellipsis, by code points", () => {
    const long = `${"😀".repeat(59)}${"x".repeat(500)}`;
    expect(mermaidText(long)).toBe(`${"#128512;".repeat(59)}#8230;`);
    expect(mermaidText("a\n\n  b")).toBe("a b");
    expect(mermaidText('a "b" | c')).toBe("a #34;b#34; #124; c");
  });
});

describe.skipIf(PAGE_TESTS_SKIPPED)("Mermaid text in the real Mermaid (headless Chromium)", () => {
  let browser: Browser;
  let page: Page;
  let count = 0;

  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage();
    await page.setContent("<!doctype html><html><body></body></html>");
    await page.addScriptTag({ path: MERMAID_JS });
    await page.evaluate(() =>
      (globalThis as unknown as { mermaid: { initialize(c: object): void } }).mermaid.initialize({
        startOnLoad: false,
        securityLevel: "strict",
      }),
    );
  }, 60_000);
  afterAll(() => browser?.close());

  /** Parses and renders `text`; the texts of its node and edge labels as the browser shows them. */
  const render = (text: string): Promise<Rendered> =>
    page.evaluate(
      async ([text, id]) => {
        const mermaid = (
          globalThis as unknown as {
            mermaid: {
              parse(t: string): Promise<unknown>;
              render(id: string, t: string): Promise<{ svg: string }>;
            };
          }
        ).mermaid;
        try {
          await mermaid.parse(text);
          const { svg } = await mermaid.render(id, text);
          const doc = new DOMParser().parseFromString(svg, "text/html");
          const texts = (selector: string) =>
            [...doc.querySelectorAll(selector)].map((e) => e.textContent ?? "");
          return {
            nodes: texts("g.node .nodeLabel"),
            edges: texts("g.edgeLabel .edgeLabel"),
            scripts: doc.querySelectorAll("script").length,
          };
        } catch (e) {
          return { error: String((e as Error)?.message ?? e), nodes: [], edges: [], scripts: 0 };
        }
      },
      [text, `d${++count}`] as const,
    );

  const graphs = readdirSync(join(ROOT, "graphs")).filter(
    (f) => /\.ya?ml$/.test(f) && !f.includes(".test."),
  );
  it.each(graphs)(
    "graphs/%s parses and renders, xray and not, every node and condition shown",
    async (file) => {
      for (const xray of [0, 16]) {
        const graph = await drawing(join(ROOT, "graphs", file), xray);
        const r = await render(toMermaid(graph));
        expect(r.error).toBeUndefined();
        const labels = r.nodes.join("\n");
        for (const n of graph.nodes)
          expect(labels).toContain(
            n.metadata?.kind === "start"
              ? "START"
              : n.metadata?.kind === "end"
                ? "END"
                : n.id.slice(n.id.lastIndexOf(":") + 1),
          );
        for (const e of graph.edges) if (e.data) expect(r.edges).toContain(shown(e.data));
      }
    },
  );

  it("draws every edge form and mark of the fixture: conditions, router, map, join, breakpoints, pauses, subgraph blocks", async () => {
    const graph = await drawing(join(ROOT, "test/fixtures/drawing/everything.yaml"), 16);
    const text = toMermaid(graph);
    const r = await render(text);
    expect(r.error).toBeUndefined();
    expect(r.edges).toEqual(
      expect.arrayContaining(["state.urgent", "default", "./tools.ts#next", "map state.items"]),
    );
    const nodes = r.nodes.join("\n");
    expect(nodes).toContain("breakpoint before");
    expect(nodes).toContain("breakpoint after");
    expect(nodes).toContain("waits for a person");
    expect(nodes).toContain("approves notify");
    expect(nodes).toContain("unreachable");
    expect(text).toMatch(/^ {2}subgraph sg_sub\["sub"\]$/m);
    // The join: left and right meet at one node that leads to merge; the map edge is thick.
    expect(text).toMatch(/^ {2}(join_\w+)\(\("all"\)\)\n {2}\1 --> n_merge$/m);
    expect(text).toMatch(/n_merge ==>\|"map state\.items"\| n_each/);
  });

  it("shows a long node name whole, and conditions that begin alike as different labels", async () => {
    const graph = await drawing(join(ROOT, "test/fixtures/drawing/long-routes.yaml"));
    const r = await render(toMermaid(graph));
    expect(r.error).toBeUndefined();
    const name = "classify_the_incoming_support_ticket_by_category_and_urgency_for_routing";
    expect(r.nodes.some((l) => l.startsWith(name))).toBe(true);
    const routes = r.edges.filter((l) => l.startsWith("state.category"));
    expect(routes).toHaveLength(2);
    expect(new Set(routes).size).toBe(2);
    for (const l of routes) expect(Array.from(l).length).toBeLessThanOrEqual(60);
    expect(routes.some((l) => l.includes("enterprise_plan"))).toBe(true);
    expect(routes.some((l) => l.includes("small_business_plan"))).toBe(true);
  });

  it("keeps every name under a node whole: the tools an agent approves go on over more lines", async () => {
    const tools = [
      "refund_the_customer_order_in_full_after_a_second_review",
      "refund_the_customer_order_in_part_after_a_second_review",
      "notify_the_customer_by_email",
    ];
    const graph: DrawableGraph = {
      nodes: [
        {
          id: "resolve_the_customer_request_with_the_tools_the_policy_allows_for_this_tier",
          type: "runnable",
          data: { id: "resolve", name: "resolve" },
          metadata: { kind: "agent", pauses: true, approve: tools, interrupt: ["before"] },
        },
      ],
      edges: [],
    };
    const r = await render(toMermaid(graph));
    expect(r.error).toBeUndefined();
    const label = r.nodes.join("\n");
    expect(label).toContain(
      "resolve_the_customer_request_with_the_tools_the_policy_allows_for_this_tier",
    );
    expect(label).toContain("breakpoint before");
    for (const tool of tools) expect(label).toContain(tool);
    expect(label).not.toContain("…");
  });

  it("keeps any condition and node name as text: fuzzed with quotes, |, <>, #, newlines, unicode, huge ones", async () => {
    const nasty = fc.constantFrom(
      '"',
      "'",
      "|",
      "<",
      ">",
      "#",
      ";",
      "#quot;",
      "&amp;",
      "\n",
      "\r\n",
      "\t",
      "end",
      "-->",
      "%%",
      "[",
      "]",
      "{",
      "}",
      "(",
      ")",
      "`",
      "\\",
      "<script>alert(1)</script>",
      "<br/>",
      "\u0000",
      "\u202e",
      "😀",
      "e\u0301",
      "\ud800",
      "click",
      ":::",
      "@{",
      "subgraph",
    );
    const text = fc
      .array(fc.oneof(nasty, fc.string({ unit: "binary", maxLength: 30 })), { maxLength: 12 })
      .map((parts) => parts.join(""));
    const huge = fc.string({ unit: "grapheme", minLength: 200, maxLength: 2000 });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(text, { minLength: 2, maxLength: 3 }),
        fc.oneof(text, huge),
        async (names, condition) => {
          const graph: DrawableGraph = {
            nodes: names.map((id) => ({
              id,
              type: "runnable",
              data: { id, name: id },
              metadata: { kind: "llm" },
            })),
            edges: [
              {
                source: names[0]!,
                target: names[1]!,
                conditional: true,
                kind: "route",
                data: condition,
                when: condition,
              },
            ],
          };
          const r = await render(toMermaid(graph));
          expect(r.error).toBeUndefined();
          expect(r.scripts).toBe(0);
          // A name that is all ':'-less shows as given (xray names show their last part).
          for (const name of names)
            expect(
              r.nodes.some((l) =>
                l.startsWith(shown(name.slice(name.lastIndexOf(":") + 1), Infinity)),
              ),
            ).toBe(true);
          if (shown(condition)) expect(r.edges).toContain(shown(condition));
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});
