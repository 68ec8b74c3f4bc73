/** A run, resume or stream called with a missing graph or an empty thread id is a clear error, never a TypeError or a silent new thread. */
import { describe, expect, it } from "vitest";
import { createExecutor, RunArgumentError } from "../../src/index.js";

const exec = () => createExecutor({ checkpointer: "memory" });

describe("run arguments", () => {
  it("resume(undefined, …) names the missing graph and how to find a thread's graph", async () => {
    const e = await exec()
      .resume(undefined as never, { threadId: "t-1", value: true })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RunArgumentError);
    expect(e).not.toBeInstanceOf(TypeError);
    expect((e as RunArgumentError).message).toMatch(/resume\(\): the graph is missing/);
    expect((e as RunArgumentError).hint).toMatch(/graphOf\(threadId\)/);
  });

  it("resume without options, or without a thread id, says a thread is needed", async () => {
    const none = await exec()
      .resume("support-triage", undefined as never)
      .catch((x: unknown) => x);
    expect(none).toBeInstanceOf(RunArgumentError);
    expect((none as Error).message).toMatch(/threadId/);
  });

  it("an empty thread id is refused, not a silent new thread", async () => {
    for (const call of [
      () => exec().run("support-triage", { threadId: "", input: {} }),
      () => exec().resume("support-triage", { threadId: "" }),
      async () => {
        for await (const _ of exec().stream("support-triage", { threadId: "  " })) {
          /* nothing */
        }
      },
    ]) {
      const e = await call().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(RunArgumentError);
      expect((e as Error).message).toMatch(/thread id is empty/);
    }
  });
});
