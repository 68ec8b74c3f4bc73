/**
 * The `parallel-write` rule as `validate` reports it, on the shapes users write beside the golden
 * fixtures (test/fixtures/invalid/parallel-write): which channels keep only the last write, the
 * hint's reducer for each type, resets (`null`) of reducer channels, subgraphs that copy channels
 * back, and the wording of each way two nodes (or one node twice) meet in a step.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSpec, validate } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-parallel-write-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
writeFileSync(join(dir, "route.ts"), "export function next(): string[] {\n  return [];\n}\n");
let n = 0;

/** The path of a new spec file holding `text`. */
async function written(text: string): Promise<string> {
  n += 1;
  const path = join(dir, `spec${n}.yaml`);
  writeFileSync(path, text);
  return path;
}

/** `LINE:COL message (hint: …)` of each parallel-write finding; fails on any other finding. */
async function parallelWrites(text: string): Promise<string[]> {
  const found = await validate(await readSpec(await written(text), { root: dir }));
  expect(found.filter((d) => d.rule !== "parallel-write").map((d) => d.message)).toEqual([]);
  return found.map((d) => `${d.line}:${d.column} ${d.message} (hint: ${d.hint})`);
}

/** A spec with the given state, nodes and edges (YAML lines, indented by the caller). */
const spec = (state: string, nodes: string, edges: string) =>
  `version: 1\nname: t\nstate:\n${state}\nnodes:\n${nodes}\nedges:\n${edges}\n`;

/** `a` and `b` both write `answer` after a fan-out from START. */
const fanOut = (field: string, a = "x", b = "y") =>
  spec(
    `  answer: ${field}`,
    `  a: { kind: set, values: { answer: ${a} } }\n  b: { kind: set, values: { answer: ${b} } }`,
    "  - { from: START, to: [a, b] }\n  - { from: [a, b], to: END }",
  );

const both = "both run after START (fan-out at edges[0])";
const together = (channel: string, how = both) =>
  `\`b\` and \`a\` can run in the same step and both write \`${channel}\`, a \`replace\` channel: ${how}`;

describe("which channels keep only the last write", () => {
  it("a channel with no reducer, or `reducer: replace`, takes one write a step", async () => {
    const hint =
      "give `answer` a reducer that combines writes (`type: array` with `reducer: append`), or let the nodes write different channels";
    for (const field of ["{ type: string }", "{ type: string, reducer: replace }"])
      expect(await parallelWrites(fanOut(field))).toEqual([
        `7:29 ${together("answer")} (hint: ${hint})`,
      ]);
  });

  it("a reducer other than `replace` combines them", async () => {
    expect(
      await parallelWrites(
        fanOut(
          "{ type: array, items: { type: string }, reducer: append, default: [] }",
          "[x]",
          "[y]",
        ),
      ),
    ).toEqual([]);
  });

  it("a `messages` channel without `reducer` appends (LangGraph's messages reducer)", async () => {
    expect(
      await parallelWrites(
        spec(
          "  messages: { type: messages }",
          "  a: { kind: set, values: { messages: [{ role: ai, content: x }] } }\n  b: { kind: set, values: { messages: [{ role: ai, content: y }] } }",
          "  - { from: START, to: [a, b] }\n  - { from: [a, b], to: END }",
        ),
      ),
    ).toEqual([]);
  });

  it("the hint names the reducer that suits the channel's type", async () => {
    const hintFor = async (type: string, a: string, b: string) =>
      (await parallelWrites(fanOut(`{ type: ${type} }`, a, b)))[0]?.replace(/^.*\(hint: /, "");
    const fix = (f: string) =>
      `give \`answer\` a reducer that combines writes (${f}), or let the nodes write different channels)`;
    expect(await hintFor("array", "[x]", "[y]")).toBe(fix("`reducer: append`"));
    expect(await hintFor("object", "{ k: x }", "{ k: y }")).toBe(fix("`reducer: merge`"));
    expect(await hintFor("number", "1", "2")).toBe(fix("`reducer: sum` (or `max`, `min`)"));
    expect(await hintFor("integer", "1", "2")).toBe(fix("`reducer: sum` (or `max`, `min`)"));
    expect(await hintFor("boolean", "true", "false")).toBe(
      fix("`type: array` with `reducer: append`"),
    );
  });
});

const notes = "  notes: { type: array, items: { type: string }, reducer: append, default: [] }";
const resetHint =
  "reset `notes` from one node of the step only (e.g. a `set` node before them), or let the nodes run in different steps";

describe("resets (`null`) of a reducer channel", () => {
  it("two nodes of a step that reset one channel", async () => {
    expect(
      await parallelWrites(
        spec(
          notes,
          "  a: { kind: set, values: { notes: null } }\n  b: { kind: set, values: { notes: null } }",
          "  - { from: START, to: [a, b] }\n  - { from: [a, b], to: END }",
        ),
      ),
    ).toEqual([
      `7:29 \`b\` and \`a\` can run in the same step and both reset \`notes\` (write \`null\`), and a step takes one reset of a channel: ${both} (hint: ${resetHint})`,
    ]);
  });

  it("one reset beside appends, or resets in different steps, are fine", async () => {
    expect(
      await parallelWrites(
        spec(
          notes,
          "  a: { kind: set, values: { notes: null } }\n  b: { kind: set, values: { notes: [x] } }\n  c: { kind: set, values: { notes: null } }",
          "  - { from: START, to: [a, b] }\n  - { from: [a, b], to: c }\n  - { from: c, to: END }",
        ),
      ),
    ).toEqual([]);
  });

  it("a map target that resets a channel resets it once per item", async () => {
    expect(
      await parallelWrites(
        spec(
          `${notes}\n  items: { type: array, items: { type: string }, default: [] }`,
          "  a: { kind: set, values: { items: [x, y] } }\n  b: { kind: set, values: { notes: null } }",
          "  - { from: START, to: a }\n  - { from: a, map: { over: state.items, to: b } }\n  - { from: b, to: END }",
        ),
      ),
    ).toEqual([
      `8:29 \`b\` resets \`notes\` (writes \`null\`) and can run several times in one step, and a step takes one reset of a channel: the map at edges[1] runs it once per item of \`state.items\`, in parallel (hint: ${resetHint})`,
    ]);
  });

  it("a reset in a node's own write or in its `on_error.write`; a value there is no reset", async () => {
    const nodes = (a: string) =>
      `  a: { kind: set, values: { notes: ${a.split("|")[0]} }, on_error: { write: { notes: ${a.split("|")[1]} } } }\n  b: { kind: set, values: { notes: null } }`;
    const edges = "  - { from: START, to: [a, b] }\n  - { from: [a, b], to: END }";
    const clash = (at: string, a: string) =>
      `${at} \`b\` and ${a} can run in the same step and both reset \`notes\` (write \`null\`), and a step takes one reset of a channel: ${both} (hint: ${resetHint})`;
    expect(await parallelWrites(spec(notes, nodes("null|[failed]"), edges))).toEqual([
      clash("7:29", "`a`"),
    ]);
    expect(await parallelWrites(spec(notes, nodes("[x]|null"), edges))).toEqual([
      clash("7:29", "`a` (its `on_error`, when it fails)"),
    ]);
    expect(await parallelWrites(spec(notes, nodes("[x]|[failed]"), edges))).toEqual([]);
  });

  it("a reset in `on_error.write` stands at that key", async () => {
    expect(
      await parallelWrites(
        spec(
          notes,
          "  b: { kind: set, values: { notes: null } }\n  a: { kind: set, values: { notes: [x] }, on_error: { write: { notes: null } } }",
          "  - { from: START, to: [a, b] }\n  - { from: [a, b], to: END }",
        ),
      ),
    ).toEqual([
      `7:64 \`a\` (its \`on_error\`, when it fails) and \`b\` can run in the same step and both reset \`notes\` (write \`null\`), and a step takes one reset of a channel: ${both} (hint: ${resetHint})`,
    ]);
  });

  it("resets of a `replace` channel are its parallel writes, said once", async () => {
    expect(await parallelWrites(fanOut("{ type: string }", "null", "null"))).toEqual([
      `7:29 ${together("answer")} (hint: give \`answer\` a reducer that combines writes (\`type: array\` with \`reducer: append\`), or let the nodes write different channels)`,
    ]);
  });
});

describe("a subgraph without `output` writes the channels it copies back", () => {
  /** The parallel-write findings of a parent that runs `sub` (mounting `child`) beside `w`. */
  async function beside(child: string, subFields = "", parentState = "") {
    n += 1;
    writeFileSync(
      join(dir, `child${n}.yaml`),
      `version: 1\nname: child${n}\n${child}nodes:\n  c: { kind: set, values: { answer: inner } }\nedges:\n  - { from: START, to: c }\n  - { from: c, to: END }\n`,
    );
    const path = join(dir, `parent${n}.yaml`);
    writeFileSync(
      path,
      spec(
        `  answer: { type: string }\n  summary: { type: string }${parentState}`,
        `  w: { kind: set, values: { answer: outer } }\n  sub: { kind: subgraph, graph: child${n}.yaml${subFields} }`,
        "  - { from: START, to: [w, sub] }\n  - { from: [w, sub], to: END }",
      ),
    );
    const found = await validate(await readSpec(path, { root: dir }));
    return found.map((d) => `${d.line}:${d.column} [${d.rule}] ${d.message.split(":")[0]}`);
  }

  it("a channel both declare: at the subgraph's `graph:`", async () => {
    expect(await beside("state:\n  answer: { type: string }\n")).toEqual([
      "8:33 [parallel-write] `sub` and `w` can run in the same step and both write `answer`, a `replace` channel",
    ]);
  });

  it("not a channel the child's `output` list leaves out, nor one the parent lacks", async () => {
    expect(
      await beside(
        "state:\n  answer: { type: string }\n  other: { type: string }\noutput: [other]\n",
      ),
    ).toEqual([]);
    expect(
      await beside(
        "state:\n  answer: { type: string }\n  other: { type: string }\noutput: [answer, other]\n",
      ),
    ).toEqual([
      "8:33 [parallel-write] `sub` and `w` can run in the same step and both write `answer`, a `replace` channel",
    ]);
  });

  it("not a key the child's `output` names but its state lacks (the child's own error)", async () => {
    const found = await beside("state:\n  other: { type: string }\noutput: [answer]\n");
    expect(found.map((f) => f.replaceAll(/child\d+/g, "child"))).toEqual([
      "8:33 [subgraph-errors] subgraph `child.yaml` has 2 errors (`unknown-state-key`), the first at child.yaml",
    ]);
  });

  it("at `graph:` too when its `on_error.write` writes the channel (when it fails)", async () => {
    expect(
      await beside(
        "state:\n  answer: { type: string }\n",
        ", on_error: { write: { answer: failed } }",
      ),
    ).toEqual([
      "8:33 [parallel-write] `sub` and `w` can run in the same step and both write `answer`, a `replace` channel",
    ]);
  });

  it("with `output`, only what it maps", async () => {
    expect(
      await beside(
        "state:\n  answer: { type: string }\n",
        ', output: { summary: "${{ output.answer }}" }',
      ),
    ).toEqual([]);
  });
});

describe("why two nodes meet in a step, or one node runs twice", () => {
  /** The messages' explanations (after the colon) for a spec with `answer` and `items`. */
  async function why(nodes: string, edges: string): Promise<string[]> {
    const state =
      "  answer: { type: string }\n  items: { type: array, items: { type: string }, default: [] }\n  log: { type: array, items: { type: string }, reducer: append, default: [] }";
    return (await parallelWrites(spec(state, nodes, edges))).map((f) =>
      f.replace(
        /^(\d+:\d+) .*?, a `replace` channel(, and can run several times in one step)?: (.*) \(hint: .*$/,
        "$1 $3",
      ),
    );
  }
  const writer = (name: string, more = "") =>
    `  ${name}: { kind: set, values: { answer: ${name} }${more} }`;
  const noop = (name: string, more = "") => `  ${name}: { kind: set, values: { log: [x] }${more} }`;

  it("two deferred nodes are released together", async () => {
    expect(
      await why(
        [noop("s"), writer("a", ", defer: true"), writer("b", ", defer: true")].join("\n"),
        "  - { from: START, to: s }\n  - { from: s, to: a }\n  - { from: s, to: b }\n  - { from: [a, b], to: END }",
      ),
    ).toEqual([
      "10:29 both are deferred (`defer: true`) and run together when no edge triggers anything else",
    ]);
  });

  it("two targets of one join", async () => {
    expect(
      await why(
        [noop("p"), noop("q"), writer("a"), writer("b")].join("\n"),
        "  - { from: START, to: [p, q] }\n  - { from: [p, q], to: [a, b] }\n  - { from: [a, b], to: END }",
      ),
    ).toEqual(["11:29 both run when the join at edges[1] completes"]);
  });

  it("a node's error handler beside another branch", async () => {
    expect(
      await why(
        [noop("p", ", on_error: { goto: a }"), noop("q"), writer("a"), writer("b")].join("\n"),
        "  - { from: START, to: [p, q] }\n  - { from: p, to: END }\n  - { from: q, to: b }\n  - { from: [a, b], to: END }",
      ),
    ).toEqual([
      "11:29 `b` runs after `q` (edges[2]) while `a` runs when `p` fails (its `on_error.goto`), in the same step",
    ]);
  });

  it("a route's target beside another edge's", async () => {
    expect(
      await why(
        [noop("p"), noop("q"), writer("a"), writer("b")].join("\n"),
        "  - { from: START, to: [p, q] }\n  - { from: p, route: [{ when: state.answer == 'x', to: a }, { default: END }] }\n  - { from: q, to: b }\n  - { from: [a, b], to: END }",
      ),
    ).toEqual([
      "11:29 `b` runs after `q` (edges[2]) while `a` runs after `p` (route at edges[1]), in the same step",
    ]);
  });

  it("the runs of one map target: one fails (its `on_error.goto`) while another goes on", async () => {
    expect(
      await why(
        [noop("p"), noop("m", ", on_error: { goto: a }"), writer("a"), writer("b")].join("\n"),
        "  - { from: START, to: p }\n  - { from: p, map: { over: state.items, to: m } }\n  - { from: m, to: b }\n  - { from: [a, b], to: END }",
      ),
    ).toEqual([
      "11:29 `b` runs after `m` (edges[2]) while `a` runs when `m` fails (its `on_error.goto`), in the same step",
    ]);
  });

  it("a map that sends to a node an edge also triggers", async () => {
    expect(
      await why(
        [noop("p"), writer("a")].join("\n"),
        "  - { from: START, to: p }\n  - { from: p, map: { over: state.items, to: a } }\n  - { from: p, to: a }\n  - { from: a, to: END }",
      ),
    ).toEqual([
      "9:29 the map at edges[1] sends it work while it also is triggered after `p` (edges[2])",
    ]);
  });
});

describe("past the exact exploration's budget (a router of eleven targets): the pairwise analysis", () => {
  const ts = Array.from({ length: 10 }, (_, i) => `t${i}`);
  /**
   * A spec whose START router picks any of `t0`…`t9` and `go` (2,047 choices, more than the
   * exploration enumerates), then the given nodes and edges after `go`; edges[2] is the first given.
   * `w(name)` writes `answer`, `l(name)` appends to `log`.
   */
  async function wide(nodes: string[], edges: string[]): Promise<string[]> {
    const text = `version: 1
name: t
state:
  answer: { type: string }
  items: { type: array, items: { type: string }, default: [] }
  log: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
${ts.map((t) => `  ${t}: { kind: set, values: { log: [x] } }`).join("\n")}
${nodes.map((n) => `  ${n}`).join("\n")}
edges:
  - from: START
    router: { module: route.ts, export: next, to: [${ts.join(", ")}, go] }
  - { from: [${ts.join(", ")}], to: END }
${edges.map((e) => `  - ${e}`).join("\n")}
`;
    return (await parallelWrites(text)).map((f) =>
      f.replace(/ \(hint: .*$/, "").replace(/, a `replace` channel/, ""),
    );
  }
  const w = (n: string, more = "") => `${n}: { kind: set, values: { answer: ${n} }${more} }`;
  const l = (n: string, more = "") => `${n}: { kind: set, values: { log: [x] }${more} }`;
  const pair = "`b` and `a` can run in the same step and both write `answer`:";
  const many =
    "`a` writes `answer`, and can run several times in one step: the map at edges[2] runs it once per item of `state.items`, in parallel";
  const ended = ["{ from: [a, b], to: END }"];

  it("a fan-out's targets, and what two nodes of a step trigger next", async () => {
    expect(await wide([l("go"), w("a"), w("b")], ["{ from: go, to: [a, b] }", ...ended])).toEqual([
      `20:29 ${pair} both run after \`go\` (fan-out at edges[2])`,
    ]);
    expect(
      await wide(
        [l("go"), l("p"), l("q"), w("a"), w("b")],
        ["{ from: go, to: [p, q] }", "{ from: p, to: a }", "{ from: q, to: b }", ...ended],
      ),
    ).toEqual([
      `22:29 ${pair} \`b\` runs after \`q\` (edges[4]) while \`a\` runs after \`p\` (edges[3]), in the same step`,
    ]);
  });

  it("the pair is named in the order the nodes are declared, whatever their names' order", async () => {
    expect(
      await wide(
        [l("go"), w("zed"), w("amy")],
        ["{ from: go, to: [zed, amy] }", "{ from: [zed, amy], to: END }"],
      ),
    ).toEqual([
      "20:31 `amy` and `zed` can run in the same step and both write `answer`: both run after `go` (fan-out at edges[2])",
    ]);
  });

  it("not a route's alternatives, nor what they lead to, nor a node and its successor", async () => {
    const route = '{ from: go, route: [{ when: "state.log.size() > 1", to: a }, { default: b }] }';
    expect(await wide([l("go"), w("a"), w("b")], [route, ...ended])).toEqual([]);
    expect(
      await wide(
        [l("go"), l("a"), l("b"), w("c"), w("d")],
        [route, "{ from: a, to: c }", "{ from: b, to: d }", "{ from: [c, d], to: END }"],
      ),
    ).toEqual([]);
    expect(await wide([w("go"), w("a")], ["{ from: go, to: a }", "{ from: a, to: END }"])).toEqual(
      [],
    );
  });

  it("a route's targets when its source runs several times in one step", async () => {
    expect(
      await wide(
        [l("go"), l("m"), w("a"), w("b")],
        [
          "{ from: go, map: { over: state.items, to: m } }",
          '{ from: m, route: [{ when: "state.log.size() > 1", to: a }, { default: b }] }',
          ...ended,
        ],
      ),
    ).toEqual([
      `21:29 ${pair} both run after \`m\`, which runs several times in one step (its route at edges[3] picks one of them in each run)`,
    ]);
  });

  it("a map's target runs several times; a node the runs of a map target trigger, once", async () => {
    const mapped = "{ from: go, map: { over: state.items, to: a } }";
    expect(await wide([l("go"), w("a")], [mapped, "{ from: a, to: END }"])).toEqual([
      `19:29 ${many}`,
    ]);
    expect(
      await wide([l("go"), w("a")], [mapped, "{ from: go, to: a }", "{ from: a, to: END }"]),
    ).toEqual([`19:29 ${many}`]);
    expect(
      await wide(
        [l("go"), l("m"), w("a")],
        [
          "{ from: go, map: { over: state.items, to: m } }",
          "{ from: m, to: a }",
          "{ from: a, to: END }",
        ],
      ),
    ).toEqual([]);
  });

  it("deferred nodes: not beside what runs before their release, together when released, beside a map's target", async () => {
    expect(
      await wide(
        [l("go"), w("a", ", defer: true"), w("b")],
        ["{ from: go, to: [a, b] }", ...ended],
      ),
    ).toEqual([]);
    expect(
      await wide(
        [l("go"), l("p"), w("a", ", defer: true"), w("b", ", defer: true")],
        ["{ from: go, to: [a, p] }", "{ from: p, to: b }", ...ended],
      ),
    ).toEqual([
      `21:29 ${pair} both are deferred (\`defer: true\`) and run together when no edge triggers anything else`,
    ]);
    expect(
      await wide(
        [l("go"), w("a", ", defer: true"), w("b")],
        ["{ from: go, to: a }", "{ from: go, map: { over: state.items, to: b } }", ...ended],
      ),
    ).toEqual([
      `20:29 ${pair} \`b\` runs after \`go\` (map at edges[3]) while \`a\` is deferred (\`defer: true\`) and runs when no edge triggers anything else, in the same step`,
      "20:29 `b` writes `answer`, and can run several times in one step: the map at edges[3] runs it once per item of `state.items`, in parallel",
    ]);
  });

  it("an error handler runs beside the failed node's siblings' successors, instead of its edges", async () => {
    expect(
      await wide(
        [l("go"), l("p", ", on_error: { goto: a }"), l("q"), w("a"), w("b")],
        ["{ from: go, to: [p, q] }", "{ from: p, to: END }", "{ from: q, to: b }", ...ended],
      ),
    ).toEqual([
      `22:29 ${pair} \`b\` runs after \`q\` (edges[4]) while \`a\` runs when \`p\` fails (its \`on_error.goto\`), in the same step`,
    ]);
    expect(
      await wide(
        [l("go"), l("p", ", on_error: { goto: a }"), w("a"), w("b")],
        ["{ from: go, to: p }", "{ from: p, to: b }", ...ended],
      ),
    ).toEqual([]);
  });

  it("a join's target may be claimed beside its sources' successors (the timing is lost)", async () => {
    expect(
      await wide(
        [l("go"), l("p"), l("q"), w("a"), w("b")],
        ["{ from: go, to: [p, q] }", "{ from: [p, q], to: a }", "{ from: p, to: b }", ...ended],
      ),
    ).toEqual([
      `22:29 ${pair} \`b\` runs after \`p\` (edges[4]) while \`a\` runs when the join at edges[3] completes, in the same step`,
    ]);
  });

  it("what runs after what two nodes of a step trigger, steps later", async () => {
    expect(
      await wide(
        [l("go"), l("p"), l("q"), l("p2"), l("q2"), w("a"), w("b")],
        [
          "{ from: go, to: [p, q] }",
          "{ from: p, to: p2 }",
          "{ from: q, to: q2 }",
          "{ from: p2, to: a }",
          "{ from: q2, to: b }",
          ...ended,
        ],
      ),
    ).toEqual([
      `24:29 ${pair} \`b\` runs after \`q2\` (edges[6]) while \`a\` runs after \`p2\` (edges[5]), in the same step`,
    ]);
  });

  it("a pair met twice keeps its first witness", async () => {
    expect(
      await wide(
        [l("go"), l("p"), l("q"), w("a"), w("b")],
        ["{ from: go, to: [a, b, p, q] }", "{ from: p, to: a }", "{ from: q, to: b }", ...ended],
      ),
    ).toEqual([`22:29 ${pair} both run after \`go\` (fan-out at edges[2])`]);
  });

  it("nodes named `S` and `t` that never run together", async () => {
    expect(
      await wide(
        [l("go"), l("S"), l("t"), w("a"), w("b")],
        ["{ from: go, to: S }", "{ from: S, to: [a, t] }", "{ from: t, to: b }", ...ended],
      ),
    ).toEqual([]);
  });

  it("a pair named in reverse: its witnesses follow the names", async () => {
    expect(
      await wide(
        [l("go"), l("p"), l("q"), w("zed"), w("amy")],
        [
          "{ from: go, to: [p, q] }",
          "{ from: p, to: zed }",
          "{ from: q, to: amy }",
          "{ from: [zed, amy], to: END }",
        ],
      ),
    ).toEqual([
      "22:31 `amy` and `zed` can run in the same step and both write `answer`: `amy` runs after `q` (edges[4]) while `zed` runs after `p` (edges[3]), in the same step",
    ]);
  });

  it("a node's route beside another of its edges: both", async () => {
    const route =
      '{ from: go, route: [{ when: "state.log.size() > 1", to: a }, { default: END }] }';
    expect(await wide([l("go"), w("a"), w("b")], [route, "{ from: go, to: b }", ...ended])).toEqual(
      [`20:29 ${pair} both run after \`go\` (edges[2] and edges[3] both leave it)`],
    );
  });

  it("a deferred node held since before a later map sends", async () => {
    expect(
      await wide(
        [l("go"), l("p"), l("q"), w("a", ", defer: true"), w("b")],
        [
          "{ from: go, to: [a, p] }",
          "{ from: p, to: q }",
          "{ from: q, map: { over: state.items, to: b } }",
          ...ended,
        ],
      ),
    ).toEqual([
      `22:29 ${pair} \`b\` runs after \`q\` (map at edges[4]) while \`a\` is deferred (\`defer: true\`) and runs when no edge triggers anything else, in the same step`,
      "22:29 `b` writes `answer`, and can run several times in one step: the map at edges[4] runs it once per item of `state.items`, in parallel",
    ]);
  });

  it("a static edge and a map to one node", async () => {
    expect(
      await wide(
        [l("go"), w("a")],
        [
          "{ from: go, to: a }",
          "{ from: go, map: { over: state.items, to: a } }",
          "{ from: a, to: END }",
        ],
      ),
    ).toEqual([
      "19:29 `a` writes `answer`, and can run several times in one step: the map at edges[3] sends it work while it also is triggered after `go` (edges[2])",
    ]);
  });

  it("an error handler to END adds nothing", async () => {
    expect(
      await wide(
        [l("go"), l("p", ", on_error: { goto: END }"), l("q"), w("a"), w("b")],
        ["{ from: go, to: [p, q] }", "{ from: p, to: a }", "{ from: q, to: b }", ...ended],
      ),
    ).toEqual([
      `22:29 ${pair} \`b\` runs after \`q\` (edges[4]) while \`a\` runs after \`p\` (edges[3]), in the same step`,
    ]);
  });

  /** The parallel-write findings of a spec whose START edges are `starts`, then the router's. */
  async function fromStart(nodes: string[], starts: string[], targets: string[]) {
    const text = `version: 1\nname: t\nstate:\n  answer: { type: string }\n  log: { type: array, items: { type: string }, reducer: append, default: [] }\nnodes:\n${ts.map((t) => `  ${t}: { kind: set, values: { log: [x] } }`).join("\n")}\n${nodes.map((n) => `  ${n}`).join("\n")}\nedges:\n${starts.map((e) => `  - ${e}\n`).join("")}  - from: START\n    router: { module: route.ts, export: next, to: [${[...ts, ...targets].join(", ")}] }\n  - { from: [${ts.join(", ")}], to: END }\n  - { from: [a, b], to: END }\n`;
    return (await parallelWrites(text)).map((f) => f.replace(/ \(hint: .*$/, ""));
  }

  it("START's own targets: a router's pair, not a route's alternatives", async () => {
    expect(await fromStart([w("a"), w("b")], [], ["a", "b"])).toEqual([
      "18:29 `b` and `a` can run in the same step and both write `answer`, a `replace` channel: both run after START (its router at edges[0] may pick both)",
    ]);
    const route =
      '{ from: START, route: [{ when: "state.log.size() > 1", to: a }, { default: b }] }';
    expect(
      await fromStart([w("a"), w("b"), l("c")], [route, "{ from: c, to: END }"], ["c"]),
    ).toEqual([]);
  });

  it("a deferred node a map of its source also sends to", async () => {
    expect(
      await wide(
        [l("go"), w("a", ", defer: true")],
        [
          "{ from: go, to: a }",
          "{ from: go, map: { over: state.items, to: a } }",
          "{ from: a, to: END }",
        ],
      ),
    ).toEqual([
      "19:29 `a` writes `answer`, and can run several times in one step: the map at edges[3] sends it work while it also is deferred (`defer: true`) and runs when no edge triggers anything else",
    ]);
  });

  it("not what an unreachable node would trigger together", async () => {
    const route = '{ from: go, route: [{ when: "state.log.size() > 1", to: a }, { default: b }] }';
    const found = await validate(
      await readSpec(
        await written(
          `version: 1\nname: t\nstate:\n  answer: { type: string }\n  log: { type: array, items: { type: string }, reducer: append, default: [] }\nnodes:\n${ts.map((t) => `  ${t}: { kind: set, values: { log: [x] } }`).join("\n")}\n  ${l("go")}\n  ${w("a")}\n  ${w("b")}\n  ${l("z")}\nedges:\n  - from: START\n    router: { module: route.ts, export: next, to: [${ts.join(", ")}, go] }\n  - { from: [${ts.join(", ")}], to: END }\n  - ${route}\n  - { from: z, to: [a, b] }\n  - ${ended[0]}\n`,
        ),
        { root: dir },
      ),
    );
    expect(found.map((d) => `${d.line}:${d.column} [${d.rule}] ${d.message}`)).toEqual([
      "20:3 [unreachable-node] node `z` is unreachable: no edge leads to it",
    ]);
  });
});

describe("past 20,000 step states (no router of more than ten targets): the pairwise analysis", () => {
  /**
   * Loops of the given lengths, started together by START, step on in lockstep: loops of 2, 3, 5,
   * 7, 11 and 13 nodes go through 2 × 3 × 5 × 7 × 11 × 13 = 30,030 step states (each with a
   * single next one), more than the exploration's 20,000; without the 13, 2,310. Beside them, `x`
   * then `y` complete the join into `j` two steps after START, when `z1` has run and gone: the
   * exploration sees that they never meet; the pairwise analysis takes the join as an edge from
   * `x` and claims they do.
   */
  async function lockstep(lengths: number[]): Promise<string[]> {
    const loops = lengths.map((p) => Array.from({ length: p }, (_, i) => `c${p}_${i}`));
    const l = (n: string) => `  ${n}: { kind: set, values: { log: [x] } }`;
    const text = `version: 1
name: t
state:
  answer: { type: string }
  log: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
${[...loops.flat(), "x", "y", "z0"].map(l).join("\n")}
  j: { kind: set, values: { answer: j } }
  z1: { kind: set, values: { answer: z } }
edges:
  - { from: START, to: [${[...loops.map((c) => c[0]), "x", "z0"].join(", ")}] }
${loops.flatMap((c) => c.map((n, i) => `  - { from: ${n}, to: ${c[(i + 1) % c.length]} }`)).join("\n")}
  - { from: x, to: y }
  - { from: [x, y], to: j }
  - { from: z0, to: z1 }
  - { from: [y, j, z1], to: END }
`;
    const found = await validate(await readSpec(await written(text), { root: dir }));
    // The loops never end (no-path-to-end says so): only this rule's findings are asked here.
    return found
      .filter((d) => d.rule === "parallel-write")
      .map((d) => `${d.line}:${d.column} ${d.message}`);
  }

  it("claims a join's target beside a node it never meets; under the budget, the exploration does not", async () => {
    expect(await lockstep([2, 3, 5, 7, 11, 13])).toEqual([
      "52:30 `z1` and `j` can run in the same step and both write `answer`, a `replace` channel: `z1` runs after `z0` (edges[44]) while `j` runs when the join at edges[43] completes, in the same step",
    ]);
    expect(await lockstep([2, 3, 5, 7, 11])).toEqual([]);
  });
});

describe("the wording of other meetings (the exact exploration)", () => {
  /** The findings of a spec with `answer`, `items` and `log`, and the given nodes and edges. */
  const exact = async (nodes: string[], edges: string[]) =>
    (
      await parallelWrites(
        spec(
          "  answer: { type: string }\n  items: { type: array, items: { type: string }, default: [] }\n  log: { type: array, items: { type: string }, reducer: append, default: [] }",
          nodes.map((n) => `  ${n}`).join("\n"),
          edges.map((e) => `  - ${e}`).join("\n"),
        ),
      )
    ).map((f) => f.replace(/ \(hint: .*$/, ""));
  const w = (n: string, more = "") => `${n}: { kind: set, values: { answer: ${n} }${more} }`;
  const l = (n: string, more = "") => `${n}: { kind: set, values: { log: [x] }${more} }`;

  it("a deferred node named first beside a map's target", async () => {
    expect(
      await exact(
        [l("go"), w("b"), w("a", ", defer: true")],
        [
          "{ from: START, to: go }",
          "{ from: go, to: a }",
          "{ from: go, map: { over: state.items, to: b } }",
          "{ from: [a, b], to: END }",
        ],
      ),
    ).toEqual([
      "9:29 `b` writes `answer`, a `replace` channel, and can run several times in one step: the map at edges[2] runs it once per item of `state.items`, in parallel",
      "10:29 `a` and `b` can run in the same step and both write `answer`, a `replace` channel: `a` is deferred (`defer: true`) and runs when no edge triggers anything else while `b` runs after `go` (map at edges[2]), in the same step",
    ]);
  });

  it("the targets of two joins that complete in one step", async () => {
    expect(
      await exact(
        [l("p"), l("q"), l("r"), l("s"), w("a"), w("b")],
        [
          "{ from: START, to: [p, q, r, s] }",
          "{ from: [p, q], to: a }",
          "{ from: [r, s], to: b }",
          "{ from: [a, b], to: END }",
        ],
      ),
    ).toEqual([
      "13:29 `b` and `a` can run in the same step and both write `answer`, a `replace` channel: `b` runs when the join at edges[2] completes while `a` runs when the join at edges[1] completes, in the same step",
    ]);
  });

  it("a map from a join runs its target once per item", async () => {
    expect(
      await exact(
        [l("p"), l("q"), w("a")],
        [
          "{ from: START, to: [p, q] }",
          "{ from: [p, q], map: { over: state.items, to: a } }",
          "{ from: a, to: END }",
        ],
      ),
    ).toEqual([
      "10:29 `a` writes `answer`, a `replace` channel, and can run several times in one step: the map at edges[1] runs it once per item of `state.items`, in parallel",
    ]);
  });

  it("one run of a map target fails while another goes on, the handler named first", async () => {
    expect(
      await exact(
        [l("go"), l("p", ", on_error: { goto: a }"), w("b"), w("a")],
        [
          "{ from: START, to: go }",
          "{ from: go, map: { over: state.items, to: p } }",
          "{ from: p, to: b }",
          "{ from: [a, b], to: END }",
        ],
      ),
    ).toEqual([
      "11:29 `a` and `b` can run in the same step and both write `answer`, a `replace` channel: `a` runs when `p` fails (its `on_error.goto`) while `b` runs after `p` (edges[2]), in the same step",
    ]);
  });
});

describe("lists of node names (wording.ts' andNames, in other rules' messages)", () => {
  it("one name, and three", async () => {
    const found = await validate(
      await readSpec(
        await written(
          spec(
            "  answer: { type: string }",
            ["a", "b", "c", "y", "z"]
              .map((n) => `  ${n}: { kind: set, values: { answer: ${n} } }`)
              .join("\n"),
            "  - { from: START, to: a }\n  - { from: a, to: b }\n  - { from: b, to: c }\n  - { from: c, to: a }\n  - { from: y, to: z }\n  - { from: z, to: END }",
          ),
        ),
        { root: dir },
      ),
    );
    expect(found.map((d) => `${d.line}:${d.column} [${d.rule}] ${d.message}`)).toEqual([
      "6:3 [no-path-to-end] nodes `a`, `b` and `c` form a loop with no way out: no path from them reaches END, so a run that gets here stops only at the recursion limit",
      "9:3 [unreachable-node] node `y` is unreachable: no edge leads to it",
      "10:3 [unreachable-node] node `z` is unreachable: only `y` leads to it, and no path from START reaches it",
    ]);
  });
});

describe("the exploration's other answers (which the rules beside this one read)", () => {
  it("a join no run completes: its target never runs (unreachable-node asks whether the exploration was exact)", async () => {
    const route =
      "{ from: START, route: [{ when: \"state.answer == 'a'\", to: a }, { default: b }] }";
    const found = await validate(
      await readSpec(
        await written(
          spec(
            "  answer: { type: string }",
            ["a", "b", "j"]
              .map((n) => `  ${n}: { kind: set, values: { answer: ${n} } }`)
              .join("\n"),
            `  - ${route}\n  - { from: [a, b], to: j }\n  - { from: j, to: END }`,
          ),
        ),
        { root: dir },
      ),
    );
    expect(found.map((d) => `${d.line}:${d.column} [${d.rule}] ${d.message}`)).toEqual([
      "8:3 [unreachable-node] node `j` can never run: the join at edges[1] waits until `a` and `b` have both run, and no run reaches both",
    ]);
  });
});

describe("beside a broken section it does not read", () => {
  it("still reports (`modls:` for `models:`)", async () => {
    const found = await validate(
      await readSpec(
        await written(
          spec(
            "  answer: { type: string }",
            "  a: { kind: set, values: { answer: a } }\n  b: { kind: set, values: { answer: b } }",
            "  - { from: START, to: [a, b] }\n  - { from: [a, b], to: END }",
          ).replace("state:", 'modls:\n  default: { model: "scripted:m" }\nstate:'),
        ),
        { root: dir },
      ),
    );
    expect(found.map((d) => `${d.line}:${d.column} [${d.rule}]`)).toEqual([
      "3:1 [schema]",
      "9:29 [parallel-write]",
    ]);
  });
});
