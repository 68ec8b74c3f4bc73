/**
 * The pure parts of a thread's truth on the page: what a fork writes for an edit, as shown
 * (LangGraph's Overwrite past a reducer; a messages list again after "remove all") or through the
 * reducers; each node's status from a thread's checkpoints; a thread's kept failure read back.
 */
import { describe, expect, it } from "vitest";
import { failureOfThread, nodesFromHistory } from "../../src/web/runs/thread-progress.js";
import { forkWrites, throughReducer } from "../../src/web/threads/fork-writes.js";

const original = {
  attempts: 1,
  notes: ["a"],
  messages: [{ type: "human", content: "hi" }],
  t: "x",
};
const reducers = { attempts: "sum", notes: "append", messages: "messages" };

describe("what a fork writes", () => {
  it("as shown: a reducer's channel gets an Overwrite, messages their list after remove-all", () => {
    const edited = { ...original, attempts: 200, messages: [], t: "y" };
    expect(forkWrites(original, edited, reducers, true)).toEqual({
      attempts: { __overwrite__: 200 },
      messages: [{ type: "remove", id: "__remove_all__" }],
      t: "y",
    });
  });

  it("through the reducers: the edited keys as typed, nothing unchanged", () => {
    expect(forkWrites(original, { ...original, attempts: 200 }, reducers, false)).toEqual({
      attempts: 200,
    });
  });

  it("says what a reducer does with an edit; one it does not know, by name", () => {
    expect(throughReducer("sum")).toBe("adds the number to the current one");
    expect(throughReducer("mine")).toBe("goes through the `mine` reducer");
  });
});

const cp = (
  id: string,
  parent: string | undefined,
  tasks: { name: string; error?: string; interrupts?: unknown[] }[],
) => ({
  checkpoint: { checkpoint_id: id },
  parent_checkpoint: parent ? { checkpoint_id: parent } : null,
  tasks,
});

describe("each node's status from the checkpoints", () => {
  it("nodes of the steps before the latest ran; the latest's failed or wait", () => {
    const input = cp("0", undefined, [{ name: "__start__" }]);
    const one = cp("1", "0", [{ name: "classify" }]);
    const two = cp("2", "1", [
      { name: "approval", interrupts: [{ value: "?" }] },
      { name: "notify", error: "boom" },
    ]);
    // Another branch of the thread (a fork from "0") is not on the way to the latest.
    const other = cp("9", "0", [{ name: "investigate" }]);
    expect(nodesFromHistory([two, other, one, input], two)).toEqual({
      classify: "done",
      approval: "interrupted",
      notify: "error",
    });
  });

  it("a thread's failure: its code, node and hint, or a string as it came", () => {
    expect(
      failureOfThread({ error: "unauthorized", message: "no key", node: "llm", hint: "set it" }),
    ).toEqual({
      message: "no key",
      detail: { code: "unauthorized", node: "llm", hint: "set it" },
    });
    expect(failureOfThread("it broke")).toEqual({ message: "it broke", detail: {} });
    expect(failureOfThread(undefined).message).toBe("the last run failed");
  });
});
