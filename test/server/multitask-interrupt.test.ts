/**
 * `multitask_strategy: "interrupt"` through the official SDK: a run sent to a busy thread stops the
 * run going on there first (its status `interrupted`, what it wrote kept), then runs — streamed,
 * waited for, or in the background; the record says which strategy it came with. `reject` stays
 * the default (a 409), and `rollback` and `enqueue` are refused, saying what to use instead. The
 * `gated` graph's node waits until the test lets it go.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gates, openGatesAfterEach } from "../support/gates.js";
import { collect, type Harness, startHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});
openGatesAfterEach();

/** A thread with a background run waiting at its gate: the thread and the run. */
async function busyThread() {
  const client = h.client();
  const { thread_id } = await client.threads.create();
  const first = await client.runs.create(thread_id, "gated", { input: {} });
  await expect.poll(() => gates().length).toBe(1);
  return { client, thread_id, first };
}

describe('multitask_strategy "interrupt"', () => {
  it("runs.wait stops the thread's run, then runs", async () => {
    const { client, thread_id, first } = await busyThread();
    const second = client.runs.wait(thread_id, "gated", {
      input: {},
      multitaskStrategy: "interrupt",
    });
    await expect
      .poll(async () => (await client.runs.get(thread_id, first.run_id)).status)
      .toBe("interrupted");
    // The first run's node still waits at its gate (its run has ended); the second's is the newest.
    await expect.poll(() => gates().length).toBe(2);
    gates().pop()!();
    expect(await second).toEqual({ done: true });
    const runs = await client.runs.list(thread_id);
    expect(runs.map((r) => [r.status, r.multitask_strategy])).toEqual([
      ["success", "interrupt"],
      ["interrupted", "reject"],
    ]);
  });

  it("runs.stream and runs.create do the same", async () => {
    const { client, thread_id, first } = await busyThread();
    const streamed = collect(
      client.runs.stream(thread_id, "gated", { input: {}, multitaskStrategy: "interrupt" }),
    );
    await expect.poll(() => gates().length).toBe(2);
    expect((await client.runs.get(thread_id, first.run_id)).status).toBe("interrupted");
    gates().pop()!();
    const events = await streamed;
    expect(events.filter((e) => e.event === "values").at(-1)?.data).toEqual({ done: true });

    const again = await client.runs.create(thread_id, "gated", { input: {} });
    await expect.poll(() => gates().length).toBe(2);
    const third = await client.runs.create(thread_id, "gated", {
      input: {},
      multitaskStrategy: "interrupt",
    });
    await expect
      .poll(async () => (await client.runs.get(thread_id, again.run_id)).status)
      .toBe("interrupted");
    await expect.poll(() => gates().length).toBe(3);
    gates().pop()!();
    expect(await client.runs.join(thread_id, third.run_id)).toEqual({ done: true });
  });

  it("reject stays the default; rollback is refused, naming the field", async () => {
    const { client, thread_id, first } = await busyThread();
    await expect(client.runs.wait(thread_id, "gated", { input: {} })).rejects.toThrow(/409/);
    const refused = await client.runs
      .wait(thread_id, "gated", { input: {}, multitaskStrategy: "rollback" })
      .catch((e: Error) => e.message);
    expect(refused).toMatch(/422/);
    expect(refused).toMatch(/multitask_strategy/);
    expect((await client.runs.get(thread_id, first.run_id)).status).toBe("running");
  });
});
