/** A paused thread whose node or channel a reload removed says so when resumed (`graph-changed`). */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createDevExecutor } from "../../src/dev/dev-executor.js";
import { project, until } from "./project.js";

const p = project("changed");
afterAll(() => p.remove());

const asking = `version: 1
name: asking
state:
  ticket: { type: string }
  answer: { type: string }
nodes:
  ask: { kind: interrupt, payload: "Answer for \${{ state.ticket }}?", write: answer }
  done: { kind: set, values: { ticket: "done" } }
edges:
  - { from: START, to: ask }
  - { from: ask, to: done }
  - { from: done, to: END }
`;
const withoutAsk = `version: 1
name: asking
state:
  ticket: { type: string }
  answer: { type: string }
nodes:
  done: { kind: set, values: { ticket: "done" } }
edges:
  - { from: START, to: done }
  - { from: done, to: END }
`;
const withoutAnswer = asking
  .replace("  answer: { type: string }\n", "")
  .replace(", write: answer", "");

describe("graph-changed", () => {
  it("a thread paused at a node the change removed: the resume names the node, and nothing runs", async () => {
    p.write("graphs/asking.yaml", asking);
    const dev = createDevExecutor({ dir: p.graphs, sqlitePath: join(p.root, "a.db") });
    await dev.ready;
    const paused = await dev.executor.run("asking", { input: { ticket: "T-1" }, threadId: "t1" });
    expect(paused).toMatchObject({ status: "interrupted", next: ["ask"] });
    p.write("graphs/asking.yaml", withoutAsk);
    await until(() => dev.versionOf("asking") === 2);
    const resumed = await dev.executor.resume("asking", { threadId: "t1", value: "yes" });
    expect(resumed).toMatchObject({
      status: "failed",
      error: { code: "graph-changed", phase: "input" },
    });
    expect(resumed.error?.message).toMatch(/`ask`/);
    expect(resumed.error?.hint).toBeTruthy();
    // Put back, the thread goes on where it stood: nothing was lost.
    p.write("graphs/asking.yaml", asking);
    await until(() => dev.versionOf("asking") === 3);
    const done = await dev.executor.resume("asking", { threadId: "t1", value: "yes" });
    expect(done).toMatchObject({ status: "completed", output: { answer: "yes", ticket: "done" } });
    await dev.close();
  });

  it("a thread paused with a value in a channel the change removed: the resume names the channel", async () => {
    p.write("graphs/asking.yaml", asking);
    const dev = createDevExecutor({ dir: p.graphs, sqlitePath: join(p.root, "b.db") });
    await dev.ready;
    await dev.executor.run("asking", { input: { ticket: "T-2", answer: "draft" }, threadId: "t2" });
    p.write("graphs/asking.yaml", withoutAnswer);
    await until(() => dev.versionOf("asking") === 2);
    const resumed = await dev.executor.resume("asking", { threadId: "t2", value: "yes" });
    expect(resumed).toMatchObject({ status: "failed", error: { code: "graph-changed" } });
    expect(resumed.error?.message).toMatch(/`answer`/);
    await dev.close();
  });
});
