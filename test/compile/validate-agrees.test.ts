/**
 * What `validate` passes compiles, and what it refuses compile refuses with a CompileError (never
 * LangGraph's or JavaScript's own error): issue 13's holes in the spec's own rules, each through
 * the package entry (`validate`, `compile`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CompileError, compile, type Diagnostic, loadSpec, validate } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-agrees-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let count = 0;
/** Writes `text` as a spec file of its own (and `others` beside it), and loads it. */
async function specFile(text: string, others: Record<string, string> = {}) {
  const folder = join(dir, `p${count++}`);
  mkdirSync(folder);
  for (const [name, body] of Object.entries(others)) writeFileSync(join(folder, name), body);
  writeFileSync(join(folder, "graph.yaml"), text);
  return loadSpec(join(folder, "graph.yaml"), { root: folder });
}

const errors = (ds: readonly Diagnostic[]) =>
  ds
    .filter((d) => d.severity === "error")
    .map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`);
const warnings = (ds: readonly Diagnostic[]) =>
  ds.filter((d) => d.severity === "warning").map((d) => `${d.rule} ${d.message}`);

/** The error compile rejects with, or undefined when it compiles. */
async function compileError(
  doc: Awaited<ReturnType<typeof specFile>>,
  validateFirst = true,
): Promise<unknown> {
  try {
    await compile(doc, { validate: validateFirst });
    return undefined;
  } catch (e) {
    return e;
  }
}

const LOG = `version: 1
name: t
state:
  log: { type: array, items: { type: string }, reducer: append, default: [] }
`;

describe("unreachable nodes: a warning, and compile leaves them out", () => {
  it("a node no edge leads to (and one only it leads to) compiles and runs without them", async () => {
    const doc = await specFile(`${LOG}nodes:
  a: { kind: set, values: { log: a } }
  archive: { kind: set, values: { log: archive } }
  cleanup: { kind: set, values: { log: cleanup } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
  - { from: archive, to: cleanup }
  - { from: cleanup, to: END }
interrupts: { before: [archive] }
`);
    const ds = await validate(doc);
    expect(errors(ds)).toEqual([]);
    expect(warnings(ds)).toHaveLength(2);
    const graph = await compile(doc);
    expect(await graph.invoke({})).toEqual({ log: ["a"] });
    expect(Object.keys(graph.nodes)).not.toContain("archive");
  });

  it("a node behind a join one of whose sources nothing reaches is reported and left out", async () => {
    const doc = await specFile(`${LOG}nodes:
  a: { kind: set, values: { log: a } }
  orphan: { kind: set, values: { log: orphan } }
  joined: { kind: set, values: { log: joined } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
  - { from: [a, orphan], to: joined }
  - { from: joined, to: END }
`);
    const ds = await validate(doc);
    expect(errors(ds)).toEqual([]);
    expect(warnings(ds)).toEqual([
      "unreachable-node node `orphan` is unreachable: no edge leads to it",
      "unreachable-node node `joined` can never run: the join at edges[2] waits until `a` and `orphan` have both run, and no run reaches both",
    ]);
    const graph = await compile(doc);
    expect(await graph.invoke({})).toEqual({ log: ["a"] });
  });

  it("a node reached only through `on_error.goto` is kept", async () => {
    const doc = await specFile(`${LOG}nodes:
  a: { kind: set, values: { log: "\${{ state.log[5] }}" }, on_error: { goto: recover } }
  recover: { kind: set, values: { log: recovered } }
edges:
  - { from: START, to: a }
  - { from: a, to: END }
  - { from: recover, to: END }
`);
    expect(warnings(await validate(doc))).toEqual([]);
    const graph = await compile(doc);
    expect(await graph.invoke({})).toEqual({ log: ["recovered"] });
  });

  it("inside a subgraph's child too", async () => {
    const doc = await specFile(
      `${LOG}nodes:
  child: { kind: subgraph, graph: ./child.yaml }
edges:
  - { from: START, to: child }
  - { from: child, to: END }
`,
      {
        "child.yaml": `${LOG}nodes:
  b: { kind: set, values: { log: b } }
  dead: { kind: set, values: { log: dead } }
edges:
  - { from: START, to: b }
  - { from: b, to: END }
  - { from: dead, to: END }
`,
      },
    );
    expect(errors(await validate(doc))).toEqual([]);
    const graph = await compile(doc);
    expect(await graph.invoke({})).toEqual({ log: ["b"] });
  });
});
