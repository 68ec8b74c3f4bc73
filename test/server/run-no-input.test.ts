/**
 * A run with no input on a thread whose run has ended (`input: null`, or none — the SDK's
 * `submit(undefined)`): LangGraph's `invoke(null)` runs nothing and answers the thread's state,
 * writing no checkpoint; the server does the same (it was a 409 `nothing-to-resume`). A resume of
 * such a thread (`command.resume`) is still refused: there is no interrupt to answer.
 */
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../src/index.js";
import { collect, GRAPHS, type Harness, startHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe("a run with no input on a thread whose run has ended", () => {
  it("runs nothing and answers the state, as invoke(null) in process does", async () => {
    const built = await compile(join(GRAPHS, "three-steps.yaml"), {
      checkpointer: new MemorySaver(),
    });
    const here = { configurable: { thread_id: "here" } };
    await built.invoke({}, here);
    const handWritten = await built.invoke(null, here);

    const client = h.client();
    const { thread_id } = await client.threads.create();
    await client.runs.wait(thread_id, "three-steps", { input: {} });
    const before = await client.threads.getHistory(thread_id);
    expect(await client.runs.wait(thread_id, "three-steps", { input: null })).toEqual(handWritten);
    const events = await collect(client.runs.stream(thread_id, "three-steps", {}));
    expect(events.map((e) => e.event)).not.toContain("error");
    // Nothing ran: the same checkpoints; the runs succeeded.
    expect(await client.threads.getHistory(thread_id)).toEqual(before);
    const runs = await client.runs.list(thread_id);
    expect(runs.map((r) => r.status)).toEqual(["success", "success", "success"]);
  });

  it("a resume of it is still refused: there is no interrupt to answer", async () => {
    const client = h.client();
    const { thread_id } = await client.threads.create();
    await client.runs.wait(thread_id, "three-steps", { input: {} });
    await expect(
      client.runs.wait(thread_id, "three-steps", { command: { resume: true } }),
    ).rejects.toThrow(/409.*nothing-to-resume/);
  });
});
