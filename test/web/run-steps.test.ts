/**
 * The run view's steps (src/web/runs/run-steps.ts), from a thread's history as graphspec's server
 * gives it (`threads.getHistory`, newest first; shapes trimmed from a real answer).
 */
import type { ThreadState } from "@langchain/langgraph-sdk";
import { describe, expect, it } from "vitest";
import { lastStepOf, outputOf, stepName, stepsOf } from "../../src/web/runs/run-steps.js";

type Task = { name: string; result?: unknown; interrupts?: unknown[] };
const state = (
  id: string,
  parent: string | undefined,
  step: number,
  source: string,
  values: Record<string, unknown>,
  tasks: Task[],
) =>
  ({
    values,
    next: tasks.map((t) => t.name),
    tasks: tasks.map((t, i) => ({
      id: `${id}-t${i}`,
      name: t.name,
      interrupts: t.interrupts ?? [],
      error: null,
      checkpoint: null,
      state: null,
      ...(t.result !== undefined ? { result: t.result } : {}),
    })),
    checkpoint: { thread_id: "t", checkpoint_ns: "", checkpoint_id: id, checkpoint_map: null },
    parent_checkpoint: parent
      ? { thread_id: "t", checkpoint_ns: "", checkpoint_id: parent, checkpoint_map: null }
      : null,
    metadata: { step, source },
    created_at: null,
    interrupts: [],
  }) as unknown as ThreadState;

// START → a and b in parallel (step 1), then c, which pauses (an interrupt): newest first.
const HISTORY = [
  state("c2", "c1", 2, "loop", { n: 3, note: "x" }, [{ name: "c", interrupts: [{ value: "?" }] }]),
  state("c1", "c0", 1, "loop", { n: 3, note: "x" }, [{ name: "c" }]),
  state("c0", "c-1", 0, "loop", { n: 0, note: "x" }, [
    { name: "a", result: { n: 1 } },
    { name: "b", result: { n: 2, note: "x" } },
  ]),
  state("c-1", undefined, -1, "input", { n: 0, note: "" }, [
    { name: "__start__", result: { note: "x" } },
  ]),
];

describe("stepsOf", () => {
  it("lists each step oldest first: its nodes, the state they got, what each wrote, the state after", () => {
    const steps = stepsOf(HISTORY);
    expect(steps.map((s) => [s.step, stepName(s)])).toEqual([
      [0, "input"],
      [1, "a, b"],
      [2, "c"],
    ]);
    const parallel = steps[1]!;
    expect(parallel.before).toEqual({ n: 0, note: "x" });
    expect(parallel.updates).toEqual([
      { task: "c0-t0", node: "a", update: { n: 1 } },
      { task: "c0-t1", node: "b", update: { n: 2, note: "x" } },
    ]);
    expect(parallel.after).toEqual({ n: 3, note: "x" });
    // c's task had no result in the answer: its update is unknown, not made up.
    expect(steps[2]!.updates).toEqual([{ task: "c1-t0", node: "c", update: undefined }]);
  });

  it("leaves out a step whose parent is not in the page read, and a task that paused", () => {
    expect(stepsOf(HISTORY.slice(0, 2)).map((s) => s.id)).toEqual(["c2"]);
    // x asked a question while y finished: the step is y's alone.
    const paused = [
      state("p1", "p0", 1, "loop", { n: 1 }, [{ name: "x", interrupts: [{ value: "?" }] }]),
      state("p0", undefined, 0, "loop", { n: 0 }, [
        { name: "x", interrupts: [{ value: "?" }] },
        { name: "y", result: { n: 1 } },
      ]),
    ];
    expect(stepsOf(paused).map((s) => stepName(s))).toEqual(["y"]);
  });

  it("names a map's runs of one node once, with their count", () => {
    const mapped = [
      state("m1", "m0", 1, "loop", { drafts: ["a!", "b!"] }, []),
      state("m0", undefined, 0, "loop", { drafts: [] }, [
        { name: "draft", result: { drafts: ["a!"] } },
        { name: "draft", result: { drafts: ["b!"] } },
      ]),
    ];
    expect(stepsOf(mapped).map(stepName)).toEqual(["draft ×2"]);
  });

  it("finds the latest step a node ran in", () => {
    const steps = stepsOf(HISTORY);
    expect(lastStepOf(steps, "b")?.id).toBe("c1");
    expect(lastStepOf(steps, "nowhere")).toBeUndefined();
  });
});

describe("outputOf", () => {
  it("keeps the output schema's keys, or all values when it names none", () => {
    expect(outputOf({ n: 3, note: "x" }, { properties: { n: {} } })).toEqual({ n: 3 });
    expect(outputOf({ n: 3 }, undefined)).toEqual({ n: 3 });
    expect(outputOf({ n: 3 }, { properties: {} })).toEqual({ n: 3 });
  });
});
