/**
 * What validate says about subgraph nodes, held against what compile does with the same spec: a
 * parent that validate passes compiles, and one compile refuses has a validate error at the node.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compile, createExecutor, type Diagnostic, readSpec, validate } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-subgraph-rules-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
let n = 0;

/** Writes a child and a parent mounting it as node `sub`; returns the parent's findings and compile's verdict. */
async function mount(child: string, parent: { state: string; node?: string; edges?: string }) {
  n += 1;
  writeFileSync(join(dir, "graphs", `child${n}.yaml`), `version: 1\nname: child${n}\n${child}`);
  const path = join(dir, "graphs", `parent${n}.yaml`);
  writeFileSync(
    path,
    `version: 1
name: parent${n}
state:
${parent.state}
nodes:
  sub: { kind: subgraph, graph: child${n}.yaml${parent.node ?? ""} }
edges:
${parent.edges ?? "  - { from: START, to: sub }\n  - { from: sub, to: END }"}
`,
  );
  const doc = await readSpec(path, { root: dir });
  const found = await validate(doc);
  const compiled = await compile(doc).then(
    () => "compiled",
    (e: Error) => e.message,
  );
  const lines = (await readFile(path, "utf8")).split("\n");
  /** The parent's text where a diagnostic points. */
  const textAt = (d: Diagnostic) => lines[d.line - 1]!.slice(d.column - 1);
  return {
    doc,
    found,
    compiled,
    errors: found.filter((d: Diagnostic) => d.severity === "error"),
    textAt,
  };
}

const at = (d: Diagnostic) => `${d.line}:${d.column} [${d.rule}]`;

describe("subgraph-errors: a child's own rule errors, at the parent's graph:", () => {
  const cases: [string, string, RegExp][] = [
    [
      "missing entry",
      `state:\n  topic: { type: string }\nnodes:\n  w: { kind: set, values: { topic: x } }\nedges:\n  - { from: w, to: END }\n`,
      /graphs\/child\d+\.yaml:\d+:\d+ \[missing-entry\]/,
    ],
    [
      "parallel write",
      `state:\n  topic: { type: string }\nnodes:\n  a: { kind: set, values: { topic: a } }\n  b: { kind: set, values: { topic: b } }\nedges:\n  - { from: START, to: [a, b] }\n  - { from: a, to: END }\n  - { from: b, to: END }\n`,
      /\[parallel-write\]/,
    ],
    [
      "an expression's type",
      `state:\n  topic: { type: string }\n  count: { type: integer }\nnodes:\n  w: { kind: set, values: { count: "\${{ state.topic + 1 }}" } }\nedges:\n  - { from: START, to: w }\n  - { from: w, to: END }\n`,
      /\[expression-type\]/,
    ],
    [
      "unknown node",
      `state:\n  topic: { type: string }\nnodes:\n  w: { kind: set, values: { topic: x } }\nedges:\n  - { from: START, to: w }\n  - { from: w, to: nowhere }\n`,
      /\[unknown-node\]/,
    ],
  ];
  it.each(cases)("%s: validate errs at `graph:`, and compile refuses", async (_, child, rule) => {
    const { errors, compiled } = await mount(child, { state: "  topic: { type: string }" });
    expect(errors.map(at)).toEqual(["6:33 [subgraph-errors]"]);
    expect(errors[0]!.message).toMatch(rule);
    expect(compiled).not.toBe("compiled");
  });
});

const CHILD = `state:
  topic: { type: string }
  summary: { type: string }
  secret: { type: string }
input: [topic]
nodes:
  w: { kind: set, values: { summary: "About \${{ state.topic }}" } }
edges:
  - { from: START, to: w }
  - { from: w, to: END }
`;

describe("subgraph-channels: what crosses into and out of a child fits it", () => {
  it("an `input` key the child has no channel for: an error at the key (compile refuses it too)", async () => {
    const { errors, compiled, textAt } = await mount(CHILD, {
      state: "  topic: { type: string }",
      node: ', input: { topik: "${{ state.topic }}" }',
    });
    expect(errors.map((d) => d.rule)).toEqual(["subgraph-channels"]);
    expect(textAt(errors[0]!)).toMatch(/^topik:/);
    expect(errors[0]!.message).toMatch(/passes `topik`.*has no such state channel/);
    expect(errors[0]!.hint).toMatch(/`topic`/);
    expect(compiled).not.toBe("compiled");
  });

  it("an `input` key the child's `input` list leaves out: an error at the key", async () => {
    const { errors, compiled, textAt } = await mount(CHILD, {
      state: "  topic: { type: string }",
      node: ', input: { topic: "${{ state.topic }}", secret: "x" }',
    });
    expect(errors.map((d) => d.rule)).toEqual(["subgraph-channels"]);
    expect(textAt(errors[0]!)).toMatch(/^secret:/);
    expect(errors[0]!.message).toMatch(/does not take it as input/);
    expect(compiled).not.toBe("compiled");
  });

  it("an `input` value of another type than the child's channel: an error", async () => {
    const { errors, textAt } = await mount(CHILD, {
      state: "  n: { type: integer }",
      node: ', input: { topic: "${{ state.n }}" }',
    });
    expect(errors.map((d) => d.rule)).toEqual(["subgraph-channels"]);
    expect(textAt(errors[0]!)).toMatch(/^"\$\{\{ state\.n \}\}"/);
    expect(errors[0]!.message).toMatch(/passes `int` as `topic`.*takes `string`/);
    const literal = await mount(CHILD, {
      state: "  n: { type: integer }",
      node: ", input: { topic: 5 }",
    });
    expect(literal.errors.map((d) => d.rule)).toEqual(["subgraph-channels"]);
    expect(literal.errors[0]!.message).toMatch(/passes `int` as `topic`/);
  });

  it("a channel both declare with different types, copied in and back: an error at `graph:`", async () => {
    const { errors } = await mount(CHILD.replace("input: [topic]\n", ""), {
      state: "  topic: { type: integer }",
    });
    expect(errors.map((d) => `${at(d)} ${d.message.split(" the subgraph")[0]}`)).toEqual([
      "6:33 [subgraph-channels] channel `topic` is copied back from",
      "6:33 [subgraph-channels] channel `topic` is copied into",
    ]);
  });

  it("what fits passes, and compiles: a template of the channel's type, int into a number, shared channels alike", async () => {
    const fits = await mount(CHILD, {
      state: "  topic: { type: string }\n  summary: { type: string }",
      node: ', input: { topic: "${{ state.topic }}!" }',
    });
    expect(fits.found).toEqual([]);
    expect(fits.compiled).toBe("compiled");
    const numbers = await mount(
      "state:\n  x: { type: number }\nnodes:\n  w: { kind: set, values: { x: 1.5 } }\nedges:\n  - { from: START, to: w }\n  - { from: w, to: END }\n",
      {
        state: "  n: { type: integer }\n  x: { type: number }",
        node: ', input: { x: "${{ state.n }}" }',
      },
    );
    expect(numbers.found).toEqual([]);
    expect(numbers.compiled).toBe("compiled");
  });
});

/** What the first run does with a spec compiled without validate: "ran", or the failure. */
async function runUnchecked(doc: Awaited<ReturnType<typeof readSpec>>): Promise<string> {
  try {
    await (await compile(doc, { validate: false })).invoke({});
    return "ran";
  } catch (e) {
    return (e as Error).message;
  }
}

describe("subgraph-channels: crossings checked against the receiving reducer, both ways", () => {
  it("a child's `object` channel copied back into the parent's `messages`: an error at `graph:`, and the run fails on it", async () => {
    const { doc, errors } = await mount(
      "state:\n  messages: { type: object, default: { note: x } }\nnodes:\n  w: { kind: set, values: { messages: { note: y } } }\nedges:\n  - { from: START, to: w }\n  - { from: w, to: END }\n",
      { state: "  messages: { type: messages }", node: ", input: {}" },
    );
    expect(errors.map(at)).toEqual(["6:33 [subgraph-channels]"]);
    expect(errors[0]!.message).toMatch(
      /channel `messages` is copied back from .* as `map<string, dyn>`, and the receiving `messages` \(reducer `messages`: merges chat messages\) takes a message .*: a map of undeclared keys is no message/,
    );
    expect(await runUnchecked(doc)).toMatch(/a message channel takes messages/);
  });

  it("the parent's value copied into a child's `any` channel with `merge`: an error, and the run fails on it", async () => {
    const { doc, errors } = await mount(
      "state:\n  acc: { type: any, reducer: merge }\noutput: [acc]\nnodes:\n  w: { kind: set, values: { acc: { a: 1 } } }\nedges:\n  - { from: START, to: w }\n  - { from: w, to: END }\n",
      { state: "  acc: { type: integer, default: 1 }", node: ", output: {}" },
    );
    expect(errors.map((d) => d.message.split(" the subgraph")[0])).toEqual([
      "channel `acc` is copied into",
    ]);
    expect(errors[0]!.message).toMatch(
      /as `int`, .*\(reducer `merge`: merges mappings\) takes a map/,
    );
    expect(await runUnchecked(doc)).toMatch(/must be a mapping, not 1/);
  });

  it("a child's messages copied back into the parent's `any` channel with `sum`: an error", async () => {
    const { doc, errors } = await mount(
      "state:\n  log: { type: messages, default: [hi] }\nnodes:\n  w: { kind: set, values: { log: there } }\nedges:\n  - { from: START, to: w }\n  - { from: w, to: END }\n",
      { state: "  log: { type: any, reducer: sum }", node: ", input: {}" },
    );
    expect(errors[0]!.message).toMatch(
      /channel `log` is copied back from .* as `list<Message>`, and the receiving `log` \(reducer `sum`: adds numbers\) takes a number/,
    );
    expect(await runUnchecked(doc)).toMatch(/must be a number, not a list/);
  });

  it("`input` literals and whole channels: a number into `merge`, an `object` channel into `messages`", async () => {
    const { doc, errors } = await mount(
      "state:\n  acc: { type: any, reducer: merge }\n  log: { type: messages }\nnodes:\n  w: { kind: set, values: { acc: {} } }\nedges:\n  - { from: START, to: w }\n  - { from: w, to: END }\n",
      {
        state: "  obj: { type: object, default: { k: v } }",
        node: ', input: { acc: 1, log: "${{ state.obj }}" }, output: {}',
      },
    );
    expect(errors.map((d) => d.message.split(" to the subgraph")[0])).toEqual([
      "node `sub` passes `int` as `acc`",
      "node `sub` passes `map<string, dyn>` as `log`",
    ]);
    expect(await runUnchecked(doc)).toMatch(/must be a mapping, not 1|a message channel takes/);
  });

  it("`output` reads the child's final state with its types: a list of messages into `sum`, a channel the child does not give", async () => {
    const { errors, textAt } = await mount(
      "state:\n  log: { type: messages, default: [hi] }\n  meta: { type: object }\noutput: [log]\nnodes:\n  w: { kind: set, values: { log: there } }\nedges:\n  - { from: START, to: w }\n  - { from: w, to: END }\n",
      {
        state: "  n: { type: any, reducer: sum }\n  m: { type: object }",
        node: ', input: {}, output: { n: "${{ output.log }}", m: "${{ output.meta }}" }',
      },
    );
    expect(errors.map((d) => `${d.rule} ${textAt(d).slice(0, 20)}`)).toEqual([
      'subgraph-channels "${{ output.log }}",',
      'subgraph-channels "${{ output.meta }}"',
    ]);
    expect(errors[0]!.message).toMatch(
      /copies `list<Message>` back from .* into `n` \(reducer `sum`: adds numbers\), which takes a number/,
    );
    expect(errors[1]!.message).toMatch(/`output` has no field `meta`: .* has only `log`/);
  });

  it("what fits passes, compiles and runs: messages back into messages, maps into `merge`, numbers into `sum`", async () => {
    const { doc, found, compiled } = await mount(
      "state:\n  log: { type: messages, default: [hi] }\n  acc: { type: object }\n  n: { type: integer, default: 2 }\nnodes:\n  w: { kind: set, values: { log: there, acc: { a: 1 } } }\nedges:\n  - { from: START, to: w }\n  - { from: w, to: END }\n",
      {
        state:
          "  messages: { type: messages }\n  log: { type: messages }\n  acc: { type: any, reducer: merge }\n  n: { type: any, reducer: sum }",
        node: ', input: { log: ["hello", { role: user, content: hi }] }, output: { messages: "${{ output.log }}", acc: "${{ output.acc }}", n: "${{ output.n }}" }',
      },
    );
    expect(found).toEqual([]);
    expect(compiled).toBe("compiled");
    expect(await runUnchecked(doc)).toBe("ran");
  });
});

describe("a child that writes none of its output channels", () => {
  const KID = `state:
  a: { type: string }
  b: { type: string }
output: [b]
nodes:
  w: { kind: set, values: { a: "from the child" } }
edges:
  - { from: START, to: w }
  - { from: w, to: END }
`;
  it("without `output`: the node completes and writes nothing", async () => {
    const { found, doc } = await mount(KID, {
      state: "  a: { type: string }\n  b: { type: string }",
    });
    expect(found).toEqual([]);
    const exec = createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory" });
    try {
      const result = await exec.run(doc.path, { input: { a: "parent" } });
      expect(result.error).toBeUndefined();
      expect(result.status).toBe("completed");
      expect(result.output).toEqual({ a: "parent" });
    } finally {
      await exec.close();
    }
  });

  it("with `output`: its expressions see an `output` without the channels", async () => {
    const { found, doc } = await mount(KID, {
      state: "  a: { type: string }\n  b: { type: string }",
      node: `, output: { b: "\${{ has(output.b) ? output.b : 'none' }}" }`,
    });
    expect(found).toEqual([]);
    const exec = createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory" });
    try {
      const result = await exec.run(doc.path, { input: { a: "parent" } });
      expect(result.error).toBeUndefined();
      expect(result.output).toEqual({ a: "parent", b: "none" });
    } finally {
      await exec.close();
    }
  });
});

describe("parallel-write: the writes it used to miss", () => {
  it("a subgraph without `output` copying back a channel a sibling of its step writes", async () => {
    const { errors, textAt } = await mount(CHILD.replace("input: [topic]\n", ""), {
      state: "  topic: { type: string }\n  summary: { type: string }\n  other: { type: string }",
      node: " }\n  side: { kind: set, values: { summary: done }",
      edges:
        "  - { from: START, to: [sub, side] }\n  - { from: sub, to: END }\n  - { from: side, to: END }",
    });
    expect(errors.map((d) => d.rule)).toEqual(["parallel-write"]);
    expect(errors[0]!.message).toMatch(/`sub` and `side`|`side` and `sub`/);
    expect(errors[0]!.message).toContain("`summary`");
    expect(textAt(errors[0]!)).toMatch(/^(child\d+\.yaml|summary:)/);
  });

  it("two `null` resets of a reducer channel in one step", async () => {
    const { errors } = await mount(CHILD, {
      state:
        "  topic: { type: string }\n  tags: { type: array, items: { type: string }, reducer: append, default: [] }",
      node: " }\n  a: { kind: set, values: { tags: null } }\n  b: { kind: set, values: { tags: null }",
      edges:
        "  - { from: START, to: [a, b] }\n  - { from: a, to: sub }\n  - { from: b, to: sub }\n  - { from: sub, to: END }",
    });
    expect(errors.map((d) => d.rule)).toEqual(["parallel-write"]);
    expect(errors[0]!.message).toMatch(/`b` and `a` .*both reset `tags`/);
  });

  it("one reset beside an ordinary write of a reducer channel is fine", async () => {
    const { errors } = await mount(CHILD, {
      state:
        "  topic: { type: string }\n  tags: { type: array, items: { type: string }, reducer: append, default: [] }",
      node: " }\n  a: { kind: set, values: { tags: null } }\n  b: { kind: set, values: { tags: [x] }",
      edges:
        "  - { from: START, to: [a, b] }\n  - { from: a, to: sub }\n  - { from: b, to: sub }\n  - { from: sub, to: END }",
    });
    expect(errors).toEqual([]);
  });
});
