/**
 * A streamed run answers as soon as it has started, not when its first step has ended: the SDK's
 * `runs.stream` gets the run's `metadata` event (its id) while the first node is still running, in
 * every stream mode — `updates` included, whose first chunk comes only after that node. (The
 * server hears a run has started from its first node's start; a run driven by LangGraph's
 * `stream()` has no such event of its own.)
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { gates } from "../support/gates.js";
import { type Harness, startHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  for (const open of gates().splice(0)) open();
  await h?.stop();
});

it.each(["updates", "values", "debug"] as const)(
  "runs.stream (%s) gets the run's metadata while its first node still runs",
  async (mode) => {
    const client = h.client();
    const thread = await client.threads.create();
    const stream = client.runs.stream(thread.thread_id, "gated", { input: {}, streamMode: mode });
    const first = await stream.next();
    expect(first.value).toMatchObject({ event: "metadata", data: { run_id: expect.any(String) } });
    // The node is still held at its gate: the answer came before its step ended.
    expect(gates()).toHaveLength(1);
    gates().shift()!();
    const rest = [];
    for await (const e of stream) rest.push(e.event);
    expect(rest).toContain(mode);
    expect((await client.threads.getState(thread.thread_id)).values).toEqual({ done: true });
  },
);
