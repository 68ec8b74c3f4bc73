/**
 * Between busy steps, the executor's runs give the event loop a turn (so a deadline, a cancel,
 * Ctrl-C are seen); a compiled graph invoked directly adds none, as a hand-written LangGraph graph
 * adds none. A turn lets V8's pending collection tasks run on the graph's time: taken in every
 * graph, it made a spec's graph 1.3–1.4x slower than the same graph by hand (bench/overhead.mjs).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { afterAll, describe, expect, it } from "vitest";
import { compile } from "../../src/compile/index.js";
import { createExecutor } from "../../src/run/executor.js";
import { loadSpec } from "../../src/spec/load.js";
import { closeAfterAll } from "../support/close-after-all.js";

const dir = mkdtempSync(join(tmpdir(), "graphspec-turns-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
// `busy` asks for an event-loop callback, then holds the thread for longer than the executor
// goes without a turn (20 ms); `look` says whether the callback ran in between.
const NODES = `export const busy = () => {
  globalThis.turned = false;
  setImmediate(() => { globalThis.turned = true; });
  const t = performance.now();
  while (performance.now() - t < 40) {}
  return {};
};
export const look = () => ({ turned: globalThis.turned });
`;
writeFileSync(join(dir, "nodes.mjs"), NODES);
const SPEC = join(dir, "graphs", "busy.yaml");
writeFileSync(
  SPEC,
  `version: 1
name: busy
state:
  turned: { type: boolean, default: false }
nodes:
  busy: { kind: function, module: ../nodes.mjs, export: busy }
  look: { kind: function, module: ../nodes.mjs, export: look }
edges:
  - { from: START, to: busy }
  - { from: busy, to: look }
  - { from: look, to: END }
`,
);

const closing = closeAfterAll();
const exec = closing(createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory" }));

describe("event-loop turns between busy steps", () => {
  it("a compiled graph invoked directly takes none, like the same graph by hand", async () => {
    const { busy, look } = await import(join(dir, "nodes.mjs"));
    const hand = new StateGraph(
      Annotation.Root({
        turned: Annotation<boolean>({ reducer: (_a, b) => b, default: () => false }),
      }),
    )
      .addNode("busy", busy)
      .addNode("look", look)
      .addEdge(START, "busy")
      .addEdge("busy", "look")
      .addEdge("look", END)
      .compile();
    const compiled = await compile(await loadSpec(SPEC, { root: dir }));
    expect(await hand.invoke({})).toEqual({ turned: false });
    expect(await compiled.invoke({})).toEqual({ turned: false });
  });

  it("the executor's run takes one, so its deadline and cancel are seen", async () => {
    const r = await exec.run("busy", { input: {} });
    expect(r.status).toBe("completed");
    expect(r.output).toEqual({ turned: true });
  });
});
