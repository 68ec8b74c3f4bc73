/**
 * An expression is given only the variables it names: one that never names `state` does not
 * convert the state to CEL values at each evaluation (a copy of every list in it — in issue 23's
 * soak, a thread's path of thousands of items at each of its nodes), and is not failed by a value
 * in the state it never reads.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createExecutor } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-expr-named-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "graphs"));
writeFileSync(join(dir, "package.json"), "{}");
writeFileSync(
  join(dir, "graphs", "named.yaml"),
  `version: 1
name: named
state:
  blob: { type: any }
  n: { type: integer, default: 0 }
  who: { type: string, default: "" }
context:
  user: { type: string }
nodes:
  count: { kind: set, values: { n: "\${{ 1 + 1 }}", who: "\${{ context.user }}" } }
  read: { kind: set, values: { n: "\${{ state.n + 1 }}" } }
edges:
  - { from: START, to: count }
  - { from: count, to: read }
  - { from: read, to: END }
`,
);

/** A value nested deeper than expressions take (128 levels). */
const deep = (levels: number): unknown => {
  let v: unknown = "bottom";
  for (let i = 0; i < levels; i++) v = { down: v };
  return v;
};

it("an expression that never names `state` runs whatever the state holds; one that reads it is refused", async () => {
  const exec = createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory" });
  const r = await exec.run("named", { input: { blob: deep(200) }, context: { user: "ada" } });
  // `count` ran (before, its `1 + 1` failed on the state's depth); `read` converts the state.
  expect(r.error?.node).toBe("read");
  expect(r.error?.message).toMatch(/nested more than 128 levels deep/);
  expect(r.output).toMatchObject({ n: 2, who: "ada" });
  await exec.close();
});
