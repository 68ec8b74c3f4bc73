/**
 * A checkpoint id is looked up within the thread named: one of another thread, or of another
 * tenant's thread of the same name, is a 404 — never a fork of someone else's state, never a run
 * from it — and the thread is left as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, type Harness, startHarness } from "../server/harness.js";

const KEY_A = "key-of-tenant-a-0123456789";
const KEY_B = "key-of-tenant-b-0123456789";
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ apiKeys: { [KEY_A]: "tenant-a", [KEY_B]: "tenant-b" } });
});
afterAll(async () => {
  await h?.stop();
});

describe("a checkpoint of another thread or tenant", () => {
  it("is a 404 for updateState, runs.stream and runs.wait; nothing of it is read or written", async () => {
    const a = h.client(KEY_A);
    const b = h.client(KEY_B);
    // a's thread holds a secret-ish value; b has a thread of the same name, and another.
    await a.threads.create({ threadId: "same-name" });
    await a.runs.wait("same-name", "approval", { input: { draft: "a's private draft" } });
    const [theirs] = await a.threads.getHistory("same-name", { limit: 1 });
    const stolen = theirs!.checkpoint.checkpoint_id!;
    await b.threads.create({ threadId: "same-name" });
    await b.runs.wait("same-name", "approval", { input: { draft: "b's" } });
    await b.threads.create({ threadId: "b-other" });
    await b.runs.wait("b-other", "approval", { input: { draft: "b's other" } });
    const [other] = await b.threads.getHistory("b-other", { limit: 1 });
    const before = await b.threads.getHistory("same-name", { limit: 100 });

    for (const checkpointId of [stolen, other!.checkpoint.checkpoint_id!]) {
      await expect(
        b.threads.updateState("same-name", { values: { approved: true }, checkpointId }),
      ).rejects.toThrow(/404/);
      await expect(
        collect(
          b.runs.stream("same-name", "approval", { checkpointId, command: { resume: true } }),
        ),
      ).rejects.toThrow(/checkpoint-not-found|404/);
      await expect(
        b.runs.wait("same-name", "approval", { input: null, checkpointId }),
      ).rejects.toThrow(/404/);
      await expect(b.threads.getState("same-name", checkpointId)).rejects.toThrow(/404/);
    }
    const after = await b.threads.getHistory("same-name", { limit: 100 });
    expect(after.map((s) => s.checkpoint.checkpoint_id)).toEqual(
      before.map((s) => s.checkpoint.checkpoint_id),
    );
    expect(JSON.stringify(after)).not.toContain("a's private draft");
    expect((await a.threads.getState("same-name")).values).toMatchObject({
      draft: "a's private draft",
      approved: false,
    });
  });
});
