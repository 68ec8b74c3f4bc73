/**
 * Runs and state updates from an earlier checkpoint of a thread (LangGraph's time travel and
 * forks) through `createExecutor` on a real SQLite file: a replay from a checkpoint is a new
 * branch, a fork writes on top of the checkpoint named, an earlier interrupt can be answered
 * again; a checkpoint the thread does not have — another thread's included — is
 * `checkpoint-not-found` and nothing is written.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createExecutor, type RunEvent, type RunResult } from "../../src/index.js";
import { closeAfterAll } from "../support/close-after-all.js";

const GRAPHS = join(import.meta.dirname, "../fixtures/server/graphs");
const tmp = mkdtempSync(join(tmpdir(), "graphspec-checkpoints-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const closing = closeAfterAll();
const exec = closing(
  createExecutor({ dir: GRAPHS, checkpointer: "sqlite", sqlitePath: join(tmp, "state.db") }),
);

/** The RunResult a stream ends with. */
async function ending(events: AsyncIterable<RunEvent>): Promise<RunResult> {
  let last: RunEvent | undefined;
  for await (const e of events) last = e;
  if (!last || !("result" in last)) throw new Error(`the stream ended with ${last?.type}`);
  return last.result;
}

/** A thread of three-steps run to its end, and the checkpoint before `two` ran (n = 1). */
async function ranThreeSteps(threadId: string) {
  await exec.run("three-steps", { threadId, input: {} });
  const history = (await exec.history(threadId))!;
  const afterOne = history.find((h) => h.next[0] === "two")!;
  expect(afterOne.values).toMatchObject({ n: 1, path: ["one"] });
  return { history, afterOne };
}

describe("from a checkpoint", () => {
  it("history gives each checkpoint its parent and its tasks", async () => {
    const { history } = await ranThreeSteps("t-history");
    for (const [i, h] of history.entries())
      expect(h.parentCheckpointId).toBe(history[i + 1]?.checkpointId);
    expect(history.find((h) => h.next[0] === "two")!.tasks).toMatchObject([{ name: "two" }]);
  });

  it("a stream from a checkpoint replays from there, as a new branch; the old one stays", async () => {
    const { history, afterOne } = await ranThreeSteps("t-replay");
    const result = await ending(
      exec.stream("three-steps", {
        threadId: "t-replay",
        checkpointId: afterOne.checkpointId,
        continue: true,
      }),
    );
    expect(result.status).toBe("completed");
    expect(result.output).toMatchObject({ n: 3, path: ["one", "two", "three"] });
    const after = (await exec.history("t-replay"))!;
    // LangGraph's replay: a `fork` copy of the chosen checkpoint, then the steps after it.
    expect(after.length).toBe(history.length + 3);
    expect(after[2]).toMatchObject({ source: "fork", parentCheckpointId: afterOne.checkpointId });
    expect(after[0]!.parentCheckpointId).toBe(after[1]!.checkpointId);
    for (const h of history) expect(after.map((a) => a.checkpointId)).toContain(h.checkpointId);
  });

  it("updateState with checkpointId forks from that checkpoint", async () => {
    const { afterOne } = await ranThreeSteps("t-fork");
    const out = await exec.updateState(
      "t-fork",
      { n: 10 },
      { asNode: "one", checkpointId: afterOne.checkpointId },
    );
    expect(out).toHaveProperty("checkpointId");
    const state = (await exec.state("t-fork"))!;
    expect(state.checkpointId).toBe((out as { checkpointId: string }).checkpointId);
    expect(state.parentCheckpointId).toBe(afterOne.checkpointId);
    expect(state.values).toMatchObject({ n: 11, path: ["one"] });
    expect(state.next).toEqual(["two"]);
    // The fork runs on from there.
    const run = await exec.resume("three-steps", { threadId: "t-fork" });
    expect(run.output).toMatchObject({ n: 13, path: ["one", "two", "three"] });
  });

  it("answers an earlier interrupt again from its checkpoint", async () => {
    const paused = await exec.run("approval", { threadId: "t-again", input: { draft: "hi" } });
    expect(paused.status).toBe("interrupted");
    const declined = await exec.resume("approval", { threadId: "t-again", value: false });
    expect(declined.output).toMatchObject({ draft: "hi", log: ["prepared"] });
    const result = await ending(
      exec.stream("approval", {
        threadId: "t-again",
        checkpointId: paused.checkpointId!,
        resume: true,
      }),
    );
    expect(result.status).toBe("completed");
    expect(result.output).toMatchObject({ draft: "hi (sent)", log: ["prepared", "sent"] });
    // On a branch of its own: the declined run's checkpoints are kept.
    const history = (await exec.history("t-again"))!;
    expect(history.map((h) => h.checkpointId)).toContain(declined.checkpointId);
  });

  it("a checkpoint the thread does not have — another thread's too — is checkpoint-not-found; nothing is written", async () => {
    const { history } = await ranThreeSteps("t-mine");
    const { afterOne: theirs } = await ranThreeSteps("t-theirs");
    for (const checkpointId of [theirs.checkpointId, "no-such-checkpoint"]) {
      const update = await exec.updateState("t-mine", { n: 100 }, { asNode: "one", checkpointId });
      expect(update).toMatchObject({
        status: "failed",
        error: { code: "checkpoint-not-found", phase: "input" },
      });
      expect((update as RunResult).error!.message).toContain(checkpointId);
      const run = await ending(
        exec.stream("three-steps", { threadId: "t-mine", checkpointId, continue: true }),
      );
      expect(run.error?.code).toBe("checkpoint-not-found");
      const fresh = await ending(
        exec.stream("three-steps", { threadId: "t-mine", checkpointId, input: { n: 5 } }),
      );
      expect(fresh.error?.code).toBe("checkpoint-not-found");
    }
    expect((await exec.history("t-mine"))!.map((h) => h.checkpointId)).toEqual(
      history.map((h) => h.checkpointId),
    );
    expect((await exec.history("t-theirs"))!.length).toBe(history.length);
  });
});
