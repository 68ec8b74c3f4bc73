import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { graphspecIn, scratchDir } from "./support/cli.js";

const dir = scratchDir("fan-out");
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
  const r = graphspecIn(dir)("run", "graphs/fan.yaml", "--checkpointer", "memory", "--json");
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const result = JSON.parse(r.stdout) as { status: string; output: { done: string[] } };
  expect(result.status).toBe("completed");
  expect([...result.output.done].sort()).toEqual([...ITEMS].sort());
});
