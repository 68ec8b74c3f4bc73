/**
 * A run's `command` beyond `resume` — LangGraph's `Command({ goto, update })` — through the
 * official SDK against the server, each beside the same Command given to the graph compiled in
 * process (`compile(spec)`): the thread must end where the hand-written program's does. A goto
 * to a node the graph lacks, or an update of a channel its state lacks — which LangGraph drops
 * without a word — is refused naming it, and nothing is written.
 */
import { join } from "node:path";
import { Command, MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../src/index.js";
import { GRAPHS, type Harness, startHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

/** The graph in process, on a thread of its own, and a run on it: as a hand-written program. */
async function inProcess(graph: string) {
  const built = await compile(join(GRAPHS, `${graph}.yaml`), { checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: "here" } };
  return {
    run: (input: unknown) => built.invoke(input as never, config),
    values: async () => (await built.getState(config)).values,
  };
}

describe("a run's command: goto and update, as LangGraph's Command", () => {
  it("answers an interrupt with an update and a goto, as the graph in process does", async () => {
    const client = h.client();
    const { thread_id } = await client.threads.create();
    const here = await inProcess("approval");
    await client.runs.wait(thread_id, "approval", { input: { draft: "Hello" } });
    await here.run({ draft: "Hello" });

    // Refused (false: no route to `send`), the draft edited, and sent all the same by the goto.
    const command = { resume: false, update: { draft: "Edited" }, goto: "send" };
    const there = await client.runs.wait(thread_id, "approval", { command });
    await here.run(new Command(command));
    expect(there).toEqual(await here.values());
    expect(there).toMatchObject({ draft: "Edited (sent)", approved: false });
  });

  it("a goto on a thread that has ended runs that node, as the graph in process does", async () => {
    const client = h.client();
    const { thread_id } = await client.threads.create();
    const here = await inProcess("three-steps");
    await client.runs.wait(thread_id, "three-steps", { input: {} });
    await here.run({});
    const there = await client.runs.wait(thread_id, "three-steps", {
      command: { goto: ["three"] },
    });
    await here.run(new Command({ goto: ["three"] }));
    expect(there).toEqual(await here.values());
    expect(there).toEqual({ n: 4, path: ["one", "two", "three", "three"] });
  });

  it.each([
    [{ goto: "nowhere" }, "command.goto", /`nowhere`.*not a node/, /`one`, `two`, `three`/],
    [{ update: { m: 1 } }, "command.update.m", /`m`.*not a channel/, /`n`, `path`/],
  ])("refuses %j naming it, and writes nothing", async (command, field, message, hint) => {
    const client = h.client();
    const { thread_id } = await client.threads.create();
    await client.runs.wait(thread_id, "three-steps", { input: {} });
    const before = await client.threads.getHistory(thread_id);
    const res = await fetch(`${h.url}/threads/${thread_id}/runs/wait`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "three-steps", command }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as {
      error: string;
      field: string;
      message: string;
      hint: string;
    };
    expect(body).toMatchObject({ error: "invalid-command", field });
    expect(body.message).toMatch(message);
    expect(body.hint).toMatch(hint);
    expect(await client.threads.getHistory(thread_id)).toEqual(before);
  });

  it("refuses a Send in goto, and an update that is not an object, naming the field", async () => {
    const { thread_id } = await h.client().threads.create();
    for (const [command, field] of [
      [{ goto: [{ node: "one", input: {} }] }, "command.goto"],
      [{ update: [["n", 1]] }, "command.update"],
    ] as const) {
      const res = await fetch(`${h.url}/threads/${thread_id}/runs/wait`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ assistant_id: "three-steps", command }),
      });
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ field });
    }
  });
});
