/**
 * The graph walk behind the static rules (src/check/graph/explore-steps.ts, loops.ts, stepper.ts)
 * as users meet it: specs through the package entry's `validate`, with the exact findings of the
 * rules that read the walk (parallel-write, unreachable-node, endless-loop, no-path-to-end).
 * Mutation-tested as group `graph-walk` (stryker/groups.mjs).
 */
import { describe, expect, it } from "vitest";
import { parseSpec, validate } from "../src/index.js";
import { formatExpected } from "./helpers.js";

/**
 * The findings for a spec of `set` nodes (`name*`: deferred; `name!`: writes `out`, a `replace`
 * channel; `name?`: fails over to `on_error.goto` of `fields`) and the edges given as YAML flow
 * mappings, as `[rule] message` lines.
 */
async function findings(
  nodes: string,
  edges: string[],
  fields: Record<string, string> = {},
): Promise<string[]> {
  const node = (n: string) => {
    const name = n.replace(/[*!]/g, "");
    const values = n.includes("!") ? "{ out: x, log: [x] }" : "{ log: [x] }";
    const more = [n.includes("*") ? "defer: true" : "", fields[name] ?? ""].filter(Boolean);
    return `  ${name}: { kind: set, values: ${values}${more.map((f) => `, ${f}`).join("")} }`;
  };
  const text = [
    "version: 1",
    "name: walk",
    "state:",
    "  out: { type: string }",
    "  log: { type: array, items: { type: string }, reducer: append, default: [] }",
    "  x: { type: string, default: a }",
    "  items: { type: array, items: { type: string }, default: [] }",
    "nodes:",
    ...nodes.split(/\s+/).filter(Boolean).map(node),
    "edges:",
    ...edges.map((e) => `  - ${e}`),
  ].join("\n");
  const doc = parseSpec(text, { file: "walk.yaml" });
  expect(doc.problems).toEqual([]);
  return formatExpected(await validate(doc)).map((l) => l.replace(/^\S+ \S+ /, ""));
}

const PW =
  "(hint: give `out` a reducer that combines writes (`type: array` with `reducer: append`), or let the nodes write different channels)";

describe("what runs together, as parallel-write says it", () => {
  it("a route from a join picks one of its targets", async () => {
    expect(
      await findings("a b c! d!", [
        "{ from: START, to: [a, b] }",
        "{ from: [a, b], route: [{ when: state.x == 'a', to: c }, { default: d }] }",
        "{ from: c, to: END }",
        "{ from: d, to: END }",
      ]),
    ).toEqual([]);
  });

  it("names a failed node's error handler as the reason its target runs", async () => {
    expect(
      await findings(
        "fetch slow late! fallback!",
        [
          "{ from: START, to: [fetch, slow] }",
          "{ from: fetch, to: END }",
          "{ from: slow, to: late }",
          "{ from: late, to: END }",
          "{ from: fallback, to: END }",
        ],
        { fetch: "on_error: { goto: fallback }" },
      ),
    ).toEqual([
      `[parallel-write] \`fallback\` and \`late\` can run in the same step and both write \`out\`, a \`replace\` channel: \`fallback\` runs when \`fetch\` fails (its \`on_error.goto\`) while \`late\` runs after \`slow\` (edges[2]), in the same step ${PW}`,
    ]);
  });

  it("a map's target runs many times in one step: in each branch of a route", async () => {
    const found = await findings("p q b! c!", [
      "{ from: START, route: [{ when: state.x == 'a', to: p }, { default: q }] }",
      "{ from: p, map: { over: state.items, to: b } }",
      "{ from: q, map: { over: state.items, to: c } }",
      "{ from: b, to: END }",
      "{ from: c, to: END }",
    ]);
    expect(found).toEqual([
      `[parallel-write] \`b\` writes \`out\`, a \`replace\` channel, and can run several times in one step: the map at edges[1] runs it once per item of \`state.items\`, in parallel ${PW}`,
      `[parallel-write] \`c\` writes \`out\`, a \`replace\` channel, and can run several times in one step: the map at edges[2] runs it once per item of \`state.items\`, in parallel ${PW}`,
    ]);
  });
});

describe("what runs several times in one step", () => {
  const many = (edge: number, also: string) =>
    `[parallel-write] \`b\` writes \`out\`, a \`replace\` channel, and can run several times in one step: the map at edges[${edge}] sends it work while it also is triggered after \`a\` (edges[${also}]) ${PW}`;

  it("a node triggered by an edge and sent work by a map in the same step", async () => {
    expect(
      await findings("a b!", [
        "{ from: START, to: a }",
        "{ from: a, to: b }",
        "{ from: a, map: { over: state.items, to: b } }",
        "{ from: b, to: END }",
      ]),
    ).toEqual([many(2, "1")]);
  });

  it("names two of its reasons when there are three", async () => {
    expect(
      await findings("a b!", [
        "{ from: START, to: a }",
        "{ from: a, to: b }",
        "{ from: a, map: { over: state.items, to: b } }",
        "{ from: a, map: { over: state.items, to: b } }",
        "{ from: b, to: END }",
      ]),
    ).toEqual([many(3, "1")]);
  });

  it("START's route picks one target: START runs once", async () => {
    expect(
      await findings("b! c!", [
        "{ from: START, route: [{ when: state.x == 'a', to: b }, { default: c }] }",
        "{ from: b, to: END }",
        "{ from: c, to: END }",
      ]),
    ).toEqual([]);
  });
});

describe("a join fires once per round of its sources", () => {
  it("a route from a join waits for all its sources again after it fired", async () => {
    // Round one: a, then e beside b, then the join fires into c. c goes back to a: a alone does
    // not fire the join again, so c never runs beside e.
    expect(
      await findings("a b0 b c! e!", [
        "{ from: START, to: [a, b0] }",
        "{ from: b0, to: b }",
        "{ from: a, to: e }",
        "{ from: e, to: END }",
        "{ from: [a, b], route: [{ when: state.x == 'a', to: c }, { default: END }] }",
        "{ from: c, route: [{ when: state.x == 'a', to: a }, { default: END }] }",
      ]),
    ).toEqual([]);
  });
});

describe("a join that fired starts over", () => {
  it("the last source running again alone does not fire it", async () => {
    // Round one: {a, b0}, {e, b} (the join fires), {c}. c goes round through b0 and g: {b0, g},
    // {b, h}, {k}: b alone does not fire the join, so c never runs beside k.
    expect(
      await findings("a b0 b c! e g h k!", [
        "{ from: START, to: [a, b0] }",
        "{ from: b0, to: b }",
        "{ from: a, to: e }",
        "{ from: e, to: END }",
        "{ from: [a, b], route: [{ when: state.x == 'a', to: c }, { default: END }] }",
        "{ from: c, to: [b0, g] }",
        "{ from: g, to: h }",
        "{ from: h, to: k }",
        "{ from: k, to: END }",
      ]),
    ).toEqual([]);
  });
});

describe("deferred nodes run once per release", () => {
  // `d` and the map's `t` both write `out`: `t` runs several times in one step (reported), but
  // never beside `d`, which ran the step before.
  const tMany = (edge: number) =>
    `[parallel-write] \`t\` writes \`out\`, a \`replace\` channel, and can run several times in one step: the map at edges[${edge}] runs it once per item of \`state.items\`, in parallel ${PW}`;

  it("a join into a deferred node, released when its map sends", async () => {
    expect(
      await findings("a b d*! t!", [
        "{ from: START, to: [a, b] }",
        "{ from: [a, b], to: d }",
        "{ from: d, map: { over: state.items, to: t } }",
        "{ from: t, to: END }",
      ]),
    ).toEqual([tMany(2)]);
  });

  it("a deferred node triggered by an edge, released when its map sends", async () => {
    expect(
      await findings("a b b2 d*! t!", [
        "{ from: START, to: [a, b] }",
        "{ from: a, to: d }",
        "{ from: b, to: b2 }",
        "{ from: b2, to: END }",
        "{ from: d, map: { over: state.items, to: t } }",
        "{ from: t, to: END }",
      ]),
    ).toEqual([tMany(4)]);
  });
});

describe("what runs at all, as unreachable-node says it", () => {
  it("a node that never runs is not asked what it runs beside", async () => {
    // `d` writes `out` but its join never completes: unreachable-node, and no parallel-write.
    expect(
      await findings("a b c d!", [
        "{ from: START, to: a }",
        "{ from: a, route: [{ when: state.x == 'a', to: b }, { default: c }] }",
        "{ from: [b, c], to: d }",
        "{ from: d, to: END }",
        "{ from: b, to: END }",
        "{ from: c, to: END }",
      ]),
    ).toEqual([
      "[unreachable-node] node `d` can never run: the join at edges[2] waits until `b` and `c` have both run, and no run reaches both (hint: if only some of them run, give each its own edge to the node instead of a join)",
    ]);
  });

  it("a join into a deferred node fires once both sources have run", async () => {
    expect(
      await findings("a b d*", [
        "{ from: START, to: [a, b] }",
        "{ from: [a, b], to: d }",
        "{ from: d, to: END }",
      ]),
    ).toEqual([]);
  });
});
