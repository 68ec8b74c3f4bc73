/**
 * An `interrupt` node's `schema` travels with its interrupt as `response_schema` (LangGraph's
 * `interrupt(value, { responseSchema })`), and a client that reads the thread back — the web
 * page opening `?thread=<id>`, any UI after a reload — gets it too, not only the live stream.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, type Harness, startHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe("an interrupt's response_schema over the API", () => {
  it("is in threads.getState, getHistory and threads.get, also after a refused resume asks again", async () => {
    const client = h.client();
    const { thread_id } = await client.threads.create();
    await collect(client.runs.stream(thread_id, "approval", { input: { draft: "hi" } }));
    const state = await client.threads.getState(thread_id);
    expect(state.tasks[0]!.interrupts[0]).toMatchObject({
      value: { question: "Send this reply?", draft: "hi" },
      response_schema: { type: "boolean" },
    });
    // The paused checkpoint in the history carries it too (the threads view's timeline reads it).
    const [paused] = await client.threads.getHistory(thread_id, { limit: 1 });
    expect(paused!.tasks[0]!.interrupts[0]).toMatchObject({
      response_schema: { type: "boolean" },
    });
    const thread = await client.threads.get(thread_id);
    expect(Object.values(thread.interrupts ?? {}).flat()[0]).toMatchObject({
      response_schema: { type: "boolean" },
    });

    await collect(client.runs.stream(thread_id, "approval", { command: { resume: "yes" } }));
    const again = (await client.threads.getState(thread_id)).tasks[0]!.interrupts[0]!;
    expect(again).toMatchObject({
      value: { payload: { draft: "hi" }, error: { resume: "yes" } },
      response_schema: { type: "boolean" },
    });
  });
});
