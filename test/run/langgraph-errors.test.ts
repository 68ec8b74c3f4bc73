/**
 * LangGraph's own run-time errors reach the caller as a failed RunResult with a code from the run
 * error catalog and a hint — through the executor and the CLI — never as "internal error".
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor, RUN_ERRORS } from "../../src/index.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-lg-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
const module = (name: string, text: string) => writeFileSync(join(dir, name), text);
const graph = (name: string, text: string) =>
  writeFileSync(join(dir, "graphs", `${name}.yaml`), `version: 1\nname: ${name}\n${text}`);

// Modules import LangGraph from the project's own packages.
symlinkSync(join(import.meta.dirname, "..", "..", "node_modules"), join(dir, "node_modules"));
module("write-a.mjs", 'export default () => ({ x: "a" });\n');
module("write-b.mjs", 'export default () => ({ x: "b" });\n');
module("reset.mjs", "export default () => ({ tags: null });\n");

// Two `function` nodes without `writes`: validate cannot know they both write `x`.
graph(
  "collide",
  `state:
  x: { type: string, default: "" }
nodes:
  a: { kind: function, module: ../write-a.mjs }
  b: { kind: function, module: ../write-b.mjs }
edges:
  - { from: START, to: [a, b] }
  - { from: a, to: END }
  - { from: b, to: END }
`,
);
// Two resets (`null`, LangGraph's Overwrite) of a reducer channel in one step.
graph(
  "resets",
  `state:
  tags: { type: array, items: { type: string }, reducer: append, default: [] }
nodes:
  a: { kind: function, module: ../reset.mjs }
  b: { kind: function, module: ../reset.mjs }
edges:
  - { from: START, to: [a, b] }
  - { from: a, to: END }
  - { from: b, to: END }
`,
);

// A node whose code raises one of LangGraph's error classes, named by the input.
module(
  "raise.mjs",
  `import * as lg from "@langchain/langgraph";
export default ({ cls, message }) => {
  if (cls === "NodeTimeoutError") throw new lg.NodeTimeoutError({ node: "raise", kind: "run", runTimeout: 5, elapsed: 6 });
  throw new lg[cls](message, { reason: "not_pending" });
};
`,
);
graph(
  "raise",
  `state:
  cls: { type: string }
  message: { type: string, default: "" }
nodes:
  raise: { kind: function, module: ../raise.mjs }
edges:
  - { from: START, to: raise }
  - { from: raise, to: END }
`,
);

const exec = () => createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory" });

const graphspec = (...args: string[]) => {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe("LangGraph's InvalidUpdateError", () => {
  it("two parallel function nodes writing one replace channel: a failed RunResult `parallel-write` naming the channel and nodes", async () => {
    const e = exec();
    try {
      const result = await e.run("collide", { input: {}, threadId: "t" });
      expect(result.status).toBe("failed");
      expect(result.error).toMatchObject({ code: "parallel-write", phase: "run" });
      expect(result.error?.message).toContain("`x`");
      expect(result.error?.message).toContain("`a` and `b`");
      expect(result.error?.hint).toMatch(/reducer/);
      expect(result.error?.hint).toMatch(/`writes`/);
      // The thread is kept at the checkpoint before the failed step, and says why it failed.
      expect(result.output).toEqual({ x: "" });
      const inspected = await e.inspect("t");
      expect(inspected).toMatchObject({ status: "failed", error: { code: "parallel-write" } });
      expect((await e.state("t"))?.values).toEqual({ x: "" });
      // A resume meets the same writes again: the same error, not a crash.
      const resumed = await e.resume("collide", { threadId: "t" });
      expect(resumed).toMatchObject({ status: "failed", error: { code: "parallel-write" } });
    } finally {
      await e.close();
    }
  });

  it("two `null` resets of a reducer channel in one step: `parallel-write`", async () => {
    const e = exec();
    try {
      const result = await e.run("resets", { input: {} });
      expect(result.status).toBe("failed");
      expect(result.error).toMatchObject({ code: "parallel-write", phase: "run" });
      expect(result.error?.message).toMatch(/`null`.*`tags`/);
      expect(result.error?.message).toContain("`a` and `b`");
    } finally {
      await e.close();
    }
  });

  it("`graphspec run` exits 1 with the code; `threads show` on the thread does not crash", () => {
    const run = graphspec("run", "collide", "--thread", "cli", "--json");
    expect(run.stderr).not.toMatch(/internal error|Please report/);
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: "failed",
      error: { code: "parallel-write" },
    });
    const show = graphspec("threads", "show", "cli");
    expect(show.stderr).not.toMatch(/internal error|Please report/);
    expect(show.status).toBe(0);
    expect(show.stdout).toMatch(/failed \[parallel-write\]/);
  });
});

describe("every LangGraph error class a run can meet", () => {
  // [class, message, the code it reaches the caller as]
  const cases: [string, string, string][] = [
    ["GraphRecursionError", "Recursion limit of 25 reached", "recursion-limit"],
    ["InvalidUpdateError", 'Invalid update for channel "x" with values [1,2]', "parallel-write"],
    ["InvalidUpdateError", 'Invalid node name "nope" in Send packet', "router-target"],
    ["InvalidUpdateError", 'Expected node "raise" to return an object', "invalid-write"],
    ["EmptyInputError", "Received no input writes", "invalid-input"],
    ["UnknownInterruptError", "Unknown or already-consumed interrupt: 1", "invalid-input"],
    ["GraphValueError", "No checkpointer set", "no-checkpointer"],
    ["GraphValueError", "bad value", "node-error"],
    ["EmptyChannelError", "", "node-error"],
    ["UnreachableNodeError", "Node `b` is not reachable", "node-error"],
    ["MultipleSubgraphsError", "two subgraphs", "node-error"],
    ["RemoteException", "remote failed", "node-error"],
    ["StateGraphInputError", "", "node-error"],
    ["NodeTimeoutError", "", "timeout"],
  ];
  it.each(cases)("%s (%s) → a failed RunResult `%s` with a hint", async (cls, message, code) => {
    const e = exec();
    try {
      const result = await e.run("raise", { input: { cls, message } });
      expect(result.status).toBe("failed");
      expect(result.error?.code).toBe(code);
      expect(Object.keys(RUN_ERRORS)).toContain(result.error?.code);
      expect(result.error?.hint).toBeTruthy();
      expect(result.error?.message).not.toMatch(/Troubleshooting URL|\n/);
    } finally {
      await e.close();
    }
  });
});

describe("a reducer of the spec's own that throws", () => {
  module(
    "refuse.mjs",
    'export default (current, written) => { if (written === "boom") throw new Error("reducer refused"); return written; };\n',
  );
  graph(
    "refuses",
    `state:
  x: { type: string, reducer: { module: ../refuse.mjs }, default: "a" }
nodes:
  w: { kind: set, values: { x: boom } }
edges:
  - { from: START, to: w }
  - { from: w, to: END }
`,
  );

  it("fails the run with a code and keeps the state before the step; the thread reads back", async () => {
    const executor = exec();
    try {
      const result = await executor.run("refuses", { threadId: "refuses-1", input: {} });
      expect(result.status).toBe("failed");
      expect(result.error?.code).not.toBe("internal");
      expect(result.error?.message).toContain("reducer refused");
      expect(result.error?.message).toContain("state channel `x`");
      expect(result.output.x).toBe("a");
      const again = await executor.inspect("refuses-1");
      expect(again?.status).toBe("failed");
      expect(again?.error?.message).toContain("reducer refused");
      expect(again?.output.x).toBe("a");
    } finally {
      await executor.close();
    }
  });
});
