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

describe("what runs at all, as unreachable-node says it", () => {
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
