/**
 * A wide fan-out run by the CLI prints its result and nothing else: LangGraph adds an abort
 * listener per running task to its run signal, and past ten Node warned of a leak on stderr
 * (`MaxListenersExceededWarning`) — noise in every CI log of a map over a real list.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "..", "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-fan-out-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
const ITEMS = Array.from({ length: 25 }, (_, i) => `item-${i}`);
writeFileSync(
  join(dir, "graphs", "fan.yaml"),
  `version: 1
name: fan
state:
  items: { type: array, items: { type: string }, default: [] }
  item: { type: string, default: "" }
  done: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  begin:
    kind: set
    values: { items: "\${{ ${JSON.stringify(ITEMS).replaceAll('"', "'")} }}" }
  work:
    kind: set
    values: { done: "\${{ [state.item] }}" }
edges:
  - { from: START, to: begin }
  - from: begin
    map: { over: state.items, to: work, with: { item: "\${{ item }}" } }
  - { from: work, to: END }
`,
);

it("a map over 25 items runs each once and warns of no leak", () => {
  const r = spawnSync(
    process.execPath,
    [BIN, "run", "graphs/fan.yaml", "--checkpointer", "memory", "--json"],
    { cwd: dir, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
  );
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const result = JSON.parse(r.stdout) as { status: string; output: { done: string[] } };
  expect(result.status).toBe("completed");
  expect([...result.output.done].sort()).toEqual([...ITEMS].sort());
});
