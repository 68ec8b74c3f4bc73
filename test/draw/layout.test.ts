/**
 * The layout of drawings (src/draw/layout.ts): nothing overlaps, every edge is drawn from its
 * source to its target, clusters hold their subgraph's nodes — on the spec of every edge form
 * (test/fixtures/drawing, expanded by xray) and on a 30-node graph.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { DrawableGraph } from "../../src/draw/drawable.js";
import { expandSubgraphs } from "../../src/draw/expand.js";
import { type Layout, layoutGraph } from "../../src/draw/layout.js";
import { graphDrawing } from "../../src/server/graph-drawing.js";
import { loadSpec } from "../../src/spec/load.js";
import type { GraphSpec } from "../../src/spec/spec-types.generated.js";

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlap = (a: Box, b: Box) =>
  Math.abs(a.x - b.x) * 2 < a.width + b.width && Math.abs(a.y - b.y) * 2 < a.height + b.height;
const contains = (outer: Box, inner: Box) =>
  inner.x - inner.width / 2 >= outer.x - outer.width / 2 &&
  inner.x + inner.width / 2 <= outer.x + outer.width / 2 &&
  inner.y - inner.height / 2 >= outer.y - outer.height / 2 &&
  inner.y + inner.height / 2 <= outer.y + outer.height / 2;
/** How far a point is from a box's outline (0 on it, positive outside or inside). */
const fromOutline = (b: Box, p: { x: number; y: number }) => {
  const dx = Math.abs(p.x - b.x) - b.width / 2;
  const dy = Math.abs(p.y - b.y) - b.height / 2;
  return dx > 0 || dy > 0 ? Math.hypot(Math.max(dx, 0), Math.max(dy, 0)) : -Math.max(dx, dy);
};

const FIXTURE = join(import.meta.dirname, "../fixtures/drawing/everything.yaml");
const fixture = async (xray: number) =>
  graphDrawing({ path: FIXTURE, spec: (await loadSpec(FIXTURE)).data as GraphSpec }, xray);

/** A chain of 10 steps, each routing to two workers whose join leads to the next step: 32 nodes. */
function wide(): DrawableGraph {
  const nodes: DrawableGraph["nodes"] = [{ id: "__start__", type: "schema", data: "__start__" }];
  const edges: DrawableGraph["edges"] = [];
  for (let i = 0; i < 10; i++) {
    for (const n of [`step_${i}`, `fast_${i}`, `careful_worker_${i}`])
      nodes.push({ id: n, type: "runnable", data: { id: n, name: n }, metadata: { kind: "set" } });
    if (i === 0) edges.push({ source: "__start__", target: "step_0", conditional: false });
    edges.push({
      source: `step_${i}`,
      target: `fast_${i}`,
      conditional: true,
      data: `state.n > ${i}`,
    });
    edges.push({
      source: `step_${i}`,
      target: `careful_worker_${i}`,
      conditional: true,
      data: "default",
    });
    const after = i === 9 ? "__end__" : `step_${i + 1}`;
    edges.push({
      source: `fast_${i}`,
      target: after,
      conditional: false,
      join: [`fast_${i}`, `careful_worker_${i}`],
    });
    edges.push({
      source: `careful_worker_${i}`,
      target: after,
      conditional: false,
      join: [`fast_${i}`, `careful_worker_${i}`],
    });
  }
  nodes.push({ id: "__end__", type: "schema", data: "__end__" });
  return { nodes, edges };
}

function expectSound(layout: Layout) {
  const boxes: (Box & { id: string })[] = [...layout.nodes, ...layout.joins];
  for (const [i, a] of boxes.entries())
    for (const b of boxes.slice(i + 1))
      expect(overlap(a, b), `${a.id} overlaps ${b.id}`).toBe(false);
  for (const b of boxes) {
    expect(b.x - b.width / 2).toBeGreaterThanOrEqual(0);
    expect(b.y - b.height / 2).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width / 2).toBeLessThanOrEqual(layout.width);
    expect(b.y + b.height / 2).toBeLessThanOrEqual(layout.height);
  }
  const byId = new Map(boxes.map((b) => [b.id, b]));
  for (const e of layout.edges) {
    expect(e.points.length, `${e.source} → ${e.target}`).toBeGreaterThanOrEqual(2);
    const from = byId.get(e.source)!;
    const to = byId.get(e.target)!;
    expect(
      fromOutline(from, e.points[0]!),
      `${e.source} → ${e.target} starts at its source`,
    ).toBeLessThan(2);
    expect(
      fromOutline(to, e.points.at(-1)!),
      `${e.source} → ${e.target} ends at its target`,
    ).toBeLessThan(2);
    if (e.label)
      for (const n of layout.nodes)
        expect(overlap(e.label, n), `label ${e.label.text} over ${n.id}`).toBe(false);
  }
}

describe("layoutGraph", () => {
  it("lays out every edge form without overlaps, each edge from its source to its target", async () => {
    const g = await fixture(0);
    const layout = layoutGraph(g);
    expect(layout.nodes.map((n) => n.id)).toEqual(g.nodes.map((n) => n.id));
    expectSound(layout);
    // The join of left and right is one bar, the sources' edges meet at it, one edge goes on.
    expect(layout.joins).toEqual([
      expect.objectContaining({ sources: ["left", "right"], target: "merge" }),
    ]);
    const bar = layout.joins[0]!.id;
    expect(
      layout.edges
        .filter((e) => e.target === bar)
        .map((e) => e.source)
        .sort(),
    ).toEqual(["left", "right"]);
    expect(layout.edges.filter((e) => e.source === bar).map((e) => e.target)).toEqual(["merge"]);
    // Conditions are labels.
    expect(layout.edges.find((e) => e.target === "ask")?.label?.text).toBe("state.urgent");
    expect(layout.edges.find((e) => e.target === "each")?.label?.text).toBe("map state.items");
  });

  it("puts an expanded subgraph's nodes inside its cluster, nested clusters inside theirs", async () => {
    const layout = layoutGraph(await fixture(16));
    expectSound(layout);
    expect(layout.clusters.map((c) => [c.id, c.parent])).toEqual([
      ["sub", undefined],
      ["sub:inner", "sub"],
    ]);
    for (const c of layout.clusters) {
      const inside = layout.nodes.filter((n) => n.node.metadata?.parent === c.id);
      expect(inside.length).toBeGreaterThan(0);
      for (const n of inside) expect(contains(c, n), `${n.id} inside ${c.id}`).toBe(true);
      for (const n of layout.nodes.filter((n) => !n.id.startsWith(`${c.id}:`)))
        expect(overlap(c, n), `${n.id} outside ${c.id}`).toBe(false);
    }
    const [outer, inner] = layout.clusters;
    expect(contains(outer!, inner!)).toBe(true);
    expect(layout.nodes.find((n) => n.id === "sub:inner:summarize")?.label).toBe("summarize");
  });

  it("keeps a 30-node graph apart, every edge drawn", () => {
    const g = wide();
    expect(g.nodes.length).toBeGreaterThan(30);
    const layout = layoutGraph(g);
    expectSound(layout);
    expect(layout.joins).toHaveLength(10);
  });

  it("cuts long conditions in the label (the whole one stays on the edge)", () => {
    const when = `state.messages.size() > 3 && state.customer.tier == "gold" && state.open`;
    const layout = layoutGraph({
      nodes: [
        { id: "__start__", type: "schema", data: "__start__" },
        { id: "a", type: "runnable", data: { id: "a", name: "a" } },
        { id: "__end__", type: "schema", data: "__end__" },
      ],
      edges: [
        { source: "__start__", target: "a", conditional: false },
        { source: "a", target: "__end__", conditional: true, data: when },
      ],
    });
    const labelled = layout.edges.find((e) => e.label)!;
    expect(labelled.label!.text.length).toBeLessThanOrEqual(40);
    expect(labelled.label!.text.endsWith("…")).toBe(true);
    expect(labelled.edge.data).toBe(when);
  });
});

describe("labels of conditions that begin alike (the page's drawing and `draw --format svg|png`)", () => {
  it("cuts them to different labels, each keeping the part that tells it apart", async () => {
    const path = join(import.meta.dirname, "../fixtures/drawing/long-routes.yaml");
    const graph = await graphDrawing({ path, spec: (await loadSpec(path)).data as GraphSpec }, 0);
    const routes = layoutGraph(graph).edges.filter((e) => e.edge.when);
    expect(routes).toHaveLength(2);
    const labels = routes.map((e) => e.label!.text);
    expect(new Set(labels).size).toBe(2);
    for (const l of labels) expect(Array.from(l).length).toBeLessThanOrEqual(40);
    expect(labels.find((l) => l.includes("enterprise_plan"))).toBeDefined();
    expect(labels.find((l) => l.includes("small_business_plan"))).toBeDefined();
    // Each still begins as its condition does.
    for (const l of labels) expect(l.startsWith("state.categor")).toBe(true);
  });

  it("keeps every different condition of a graph told apart, whatever they share", () => {
    const shared = "x".repeat(30);
    const whens = [
      `${shared}a${"y".repeat(60)}`,
      `${shared}b${"y".repeat(60)}`,
      `${shared}a${"y".repeat(59)}z`,
      `${"z".repeat(200)}`,
      `${"z".repeat(199)}q`,
      "short",
    ];
    const graph: DrawableGraph = {
      nodes: ["__start__", "a", ...whens.map((_, i) => `t${i}`)].map((id) => ({
        id,
        type: "runnable",
        data: { id, name: id },
      })),
      edges: [
        { source: "__start__", target: "a", conditional: false },
        ...whens.map((when, i) => ({
          source: "a",
          target: `t${i}`,
          conditional: true,
          kind: "route" as const,
          when,
          data: when,
        })),
      ],
    };
    const labels = layoutGraph(graph).edges.flatMap((e) => (e.label ? [e.label.text] : []));
    expect(labels).toHaveLength(whens.length);
    expect(new Set(labels).size).toBe(whens.length);
    for (const l of labels) expect(Array.from(l).length).toBeLessThanOrEqual(40);
  });
});

describe("expandSubgraphs (a subgraph opened in place on the page)", () => {
  it("replaces only the opened subgraph node by its child, edges rerouted to its start and end", async () => {
    const base = await fixture(0);
    const xray = await fixture(16);
    const shown = expandSubgraphs(base, xray, new Set(["sub"]));
    const ids = new Set(shown.nodes.map((n) => n.id));
    expect(ids.has("sub")).toBe(false);
    expect(ids.has("sub:inner:summarize")).toBe(true);
    expect(ids.has("triage")).toBe(true);
    for (const e of shown.edges) {
      expect(ids, `${e.source} → ${e.target}`).toContain(e.source);
      expect(ids, `${e.source} → ${e.target}`).toContain(e.target);
    }
    expect(shown.edges).toContainEqual(
      expect.objectContaining({ source: "each", target: "sub:__start__" }),
    );
    expect(expandSubgraphs(base, xray, new Set())).toBe(base);
    expectSound(layoutGraph(shown));
  });
});
