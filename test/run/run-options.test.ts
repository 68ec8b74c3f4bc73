/**
 * Per-run recursion limit and breakpoints, as LangGraph's `invoke` offers them: through the
 * executor, the CLI and plain `compile()`. Unknown node names and limits out of range are refused
 * before anything is stored; running out of steps carries graphspec's `recursion-limit` code on
 * every surface.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, describe, expect, it } from "vitest";
import { compile, createExecutor, GraphspecRunError } from "../../src/index.js";

const BIN = join(import.meta.dirname, "..", "..", "bin", "graphspec.js");
const dir = mkdtempSync(join(tmpdir(), "graphspec-run-options-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, "package.json"), "{}");
mkdirSync(join(dir, "graphs"));
const spec = join(dir, "graphs", "counter.yaml");
// Counts to 5 through `tick` (6 steps with `done`); limits.recursion leaves room for it.
writeFileSync(
  spec,
  `version: 1
name: counter
state:
  count: { type: integer, default: 0 }
  finished: { type: boolean, default: false }
nodes:
  tick: { kind: set, values: { count: "\${{ state.count + 1 }}" } }
  done: { kind: set, values: { finished: true } }
edges:
  - { from: START, to: tick }
  - from: tick
    route:
      - { when: "state.count >= 5", to: done }
      - { default: tick }
  - { from: done, to: END }
limits:
  recursion: 20
`,
);
const executor = () => createExecutor({ dir: join(dir, "graphs"), checkpointer: "memory" });

describe("per-run recursion limit", () => {
  it("replaces the spec's, and running out fails with recursion-limit", async () => {
    const exec = executor();
    expect((await exec.run("counter")).status).toBe("completed");
    const short = await exec.run("counter", { recursionLimit: 3 });
    expect(short.status).toBe("failed");
    expect(short.error).toMatchObject({ code: "recursion-limit", phase: "run" });
    expect(short.error?.hint).toContain("recursionLimit");
  });

  it("refuses a limit out of range before anything is stored", async () => {
    const exec = executor();
    for (const recursionLimit of [0, 1.5, 20_000]) {
      const r = await exec.run("counter", { threadId: `limit-${recursionLimit}`, recursionLimit });
      expect(r.error).toMatchObject({
        code: "invalid-run-option",
        phase: "input",
        field: "recursionLimit",
      });
      expect(await exec.history(`limit-${recursionLimit}`, "counter")).toEqual([]);
    }
  });

  it("through compile(), a recursion error carries graphspec's code", async () => {
    const graph = await compile(spec);
    const error = await graph.invoke({}, { recursionLimit: 3 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GraphspecRunError);
    expect(error).toMatchObject({ code: "recursion-limit" });
    expect((error as Error).cause).toMatchObject({ name: "GraphRecursionError" });
  });
});

describe("per-run breakpoints", () => {
  it("pause before and after the nodes named, and the run resumes", async () => {
    const exec = executor();
    const before = await exec.run("counter", { interruptBefore: ["done"] });
    expect(before).toMatchObject({ status: "interrupted", next: ["done"], output: { count: 5 } });
    const finished = await exec.resume("counter", { threadId: before.threadId });
    expect(finished).toMatchObject({ status: "completed", output: { finished: true } });

    const after = await exec.run("counter", { interruptAfter: ["tick"] });
    expect(after).toMatchObject({ status: "interrupted", next: ["tick"], output: { count: 1 } });
  });

  it("refuse a node the graph does not have, with a did-you-mean, before anything is stored", async () => {
    const exec = executor();
    const r = await exec.run("counter", { threadId: "bad-break", interruptBefore: ["dnoe"] });
    expect(r.error).toMatchObject({
      code: "invalid-run-option",
      phase: "input",
      field: "interruptBefore",
      hint: "did you mean `done`?",
    });
    expect(await exec.history("bad-break", "counter")).toEqual([]);
  });

  it("through compile(), unknown nodes are refused before a checkpoint is written", async () => {
    const checkpointer = new MemorySaver();
    const graph = await compile(spec, { checkpointer });
    const config = { configurable: { thread_id: "c1" }, interruptAfter: ["tock"] };
    const error = await graph.invoke({}, config as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "invalid-run-option", field: "interruptAfter" });
    expect(await checkpointer.getTuple({ configurable: { thread_id: "c1" } })).toBeUndefined();
  });
});

describe("graphspec run --recursion-limit / --interrupt-before / --interrupt-after", () => {
  const graphspec = (...args: string[]) =>
    spawnSync(process.execPath, [BIN, ...args, "--checkpointer", "memory", "--json"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });

  it("pass the run's limit and breakpoints", () => {
    const limited = graphspec("run", "counter", "--recursion-limit", "3");
    expect(limited.status).toBe(1);
    expect(JSON.parse(limited.stdout).error.code).toBe("recursion-limit");
    const paused = graphspec("run", "counter", "--interrupt-before", "tick,done");
    expect(paused.status).toBe(0);
    expect(JSON.parse(paused.stdout)).toMatchObject({ status: "interrupted", next: ["tick"] });
    const after = graphspec("run", "counter", "--interrupt-after", "*");
    expect(JSON.parse(after.stdout)).toMatchObject({ status: "interrupted", output: { count: 1 } });
  });

  it("refuse an unknown node and a bad number", () => {
    const unknown = graphspec("run", "counter", "--interrupt-after", "tock");
    expect(unknown.status).toBe(1);
    expect(JSON.parse(unknown.stdout).error).toMatchObject({
      code: "invalid-run-option",
      hint: "did you mean `tick`?",
    });
    const bad = graphspec("run", "counter", "--recursion-limit", "many");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--recursion-limit must be a whole number");
  });
});
