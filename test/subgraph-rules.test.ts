/**
 * What validate says about subgraph nodes, held against what compile does with the same spec: a
 * parent that validate passes compiles, and one compile refuses has a validate error at the node.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compile, type Diagnostic, readSpec, validate } from "../src/index.js";

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
  return { found, compiled, errors: found.filter((d: Diagnostic) => d.severity === "error") };
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
