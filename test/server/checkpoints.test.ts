/**
 * Checkpoints through the official SDK against a real server: history pages with `before` and
 * `limit` and gives each checkpoint its parent, metadata, next and tasks with interrupts;
 * `threads.updateState` with `checkpointId` forks from that checkpoint; `runs.stream` with
 * `checkpointId` replays from it (input null) or answers its interrupt (`command.resume`); an
 * unknown checkpoint is a 404 naming it; deleting a busy thread is a 409 that deletes nothing.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gates } from "../support/gates.js";
import { collect, type Harness, startHarness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

/** A thread of three-steps run to its end; its history, and the checkpoint before `two` ran. */
async function ranThreeSteps() {
  const client = h.client();
  const thread = await client.threads.create();
  await client.runs.wait(thread.thread_id, "three-steps", { input: {} });
  const history = await client.threads.getHistory(thread.thread_id, { limit: 100 });
  const afterOne = history.find((s) => s.next[0] === "two")!;
  return { client, id: thread.thread_id, history, afterOne };
}

describe("checkpoints through the SDK", () => {
  it("history pages with before and limit; each checkpoint has its parent, metadata, next and tasks", async () => {
    const { client, id, history } = await ranThreeSteps();
    expect(history.map((s) => s.metadata?.step)).toEqual([3, 2, 1, 0, -1]);
    expect(history.map((s) => s.metadata?.source)).toEqual([
      "loop",
      "loop",
      "loop",
      "loop",
      "input",
    ]);
    for (const [i, s] of history.entries())
      expect(s.parent_checkpoint?.checkpoint_id ?? null).toBe(
        history[i + 1]?.checkpoint.checkpoint_id ?? null,
      );
    expect(history[2]).toMatchObject({ next: ["two"], tasks: [{ name: "two", interrupts: [] }] });
    const first = await client.threads.getHistory(id, { limit: 2 });
    expect(first.map((s) => s.checkpoint.checkpoint_id)).toEqual(
      history.slice(0, 2).map((s) => s.checkpoint.checkpoint_id),
    );
    const next = await client.threads.getHistory(id, {
      limit: 2,
      before: { configurable: { checkpoint_id: first[1]!.checkpoint.checkpoint_id! } },
    });
    expect(next.map((s) => s.checkpoint.checkpoint_id)).toEqual(
      history.slice(2, 4).map((s) => s.checkpoint.checkpoint_id),
    );
  });

  it("history filters by metadata; paging before a checkpoint the thread lacks gives none", async () => {
    const { client, id, history } = await ranThreeSteps();
    const inputs = await client.threads.getHistory(id, { metadata: { source: "input" } });
    expect(inputs.map((s) => s.checkpoint.checkpoint_id)).toEqual([
      history.at(-1)!.checkpoint.checkpoint_id,
    ]);
    const stepTwo = await client.threads.getHistory(id, { metadata: { step: 2 } });
    expect(stepTwo.map((s) => s.metadata?.step)).toEqual([2]);
    // Ids compare as time-ordered strings: one of another thread (or invented) must not page this one.
    const other = await ranThreeSteps();
    const foreign = other.history[0]!.checkpoint.checkpoint_id!;
    expect(
      await client.threads.getHistory(id, { before: { configurable: { checkpoint_id: foreign } } }),
    ).toEqual([]);
  });

  it("getState at a checkpoint reads that checkpoint of the thread, not another thread's", async () => {
    const { client, id, afterOne } = await ranThreeSteps();
    const at = await client.threads.getState(id, afterOne.checkpoint.checkpoint_id!);
    expect(at.checkpoint.checkpoint_id).toBe(afterOne.checkpoint.checkpoint_id);
    expect(at.values).toEqual(afterOne.values);
    expect(at.next).toEqual(["two"]);
    const other = await ranThreeSteps();
    await expect(
      client.threads.getState(id, other.afterOne.checkpoint.checkpoint_id!),
    ).rejects.toThrow(/404/);
  });

  it("history shows an interrupt in its checkpoint's tasks", async () => {
    const client = h.client();
    const thread = await client.threads.create();
    await client.runs.wait(thread.thread_id, "approval", { input: { draft: "hi" } });
    await client.runs.wait(thread.thread_id, "approval", { command: { resume: false } });
    const history = await client.threads.getHistory(thread.thread_id);
    const asked = history.find((s) => s.next[0] === "ask")!;
    expect(asked.tasks[0]!.interrupts).toMatchObject([
      { value: { question: "Send this reply?", draft: "hi" } },
    ]);
  });

  it("updateState with checkpointId forks from that checkpoint", async () => {
    const { client, id, afterOne } = await ranThreeSteps();
    const from = afterOne.checkpoint.checkpoint_id!;
    const written = await client.threads.updateState(id, {
      values: { n: 10 },
      asNode: "one",
      checkpointId: from,
    });
    const state = await client.threads.getState(id);
    expect(state.checkpoint.checkpoint_id).toBe(written.configurable?.checkpoint_id);
    expect(state.parent_checkpoint?.checkpoint_id).toBe(from);
    expect(state.values).toMatchObject({ n: 11, path: ["one"] });
    expect(state.next).toEqual(["two"]);
    // The `checkpoint: { checkpoint_id }` form too.
    const again = await client.threads.updateState(id, {
      values: { n: 20 },
      asNode: "one",
      // The SDK's type asks for a whole Checkpoint; the id is what the server reads.
      checkpoint: { checkpoint_id: from } as never,
    });
    expect((await client.threads.getState(id)).parent_checkpoint?.checkpoint_id).toBe(from);
    expect(again.configurable?.checkpoint_id).not.toBe(written.configurable?.checkpoint_id);
  });

  it("runs.stream with checkpointId and input null replays from there, as a new branch", async () => {
    const { client, id, history, afterOne } = await ranThreeSteps();
    const events = await collect(
      client.runs.stream(id, "three-steps", {
        input: null,
        checkpointId: afterOne.checkpoint.checkpoint_id!,
        streamMode: "values",
      }),
    );
    expect(events.at(-1)!.data).toMatchObject({ n: 3, path: ["one", "two", "three"] });
    const after = await client.threads.getHistory(id, { limit: 100 });
    expect(after.length).toBe(history.length + 3);
    expect(after[2]!.parent_checkpoint?.checkpoint_id).toBe(afterOne.checkpoint.checkpoint_id);
  });

  it("runs.stream with checkpointId and command.resume answers that checkpoint's interrupt", async () => {
    const client = h.client();
    const { thread_id: id } = await client.threads.create();
    await client.runs.wait(id, "approval", { input: { draft: "hi" } });
    const asked = await client.threads.getState(id);
    await client.runs.wait(id, "approval", { command: { resume: false } });
    const events = await collect(
      client.runs.stream(id, "approval", {
        checkpointId: asked.checkpoint.checkpoint_id!,
        command: { resume: true },
        streamMode: "values",
      }),
    );
    expect(events.at(-1)!.data).toMatchObject({ draft: "hi (sent)", log: ["prepared", "sent"] });
  });

  it("an unknown checkpoint is a 404 naming it, and nothing is written", async () => {
    const { client, id, history } = await ranThreeSteps();
    await expect(
      client.threads.updateState(id, { values: { n: 1 }, asNode: "one", checkpointId: "nope-1" }),
    ).rejects.toThrow(/404.*nope-1|nope-1.*404/s);
    await expect(
      collect(client.runs.stream(id, "three-steps", { input: null, checkpointId: "nope-2" })),
    ).rejects.toThrow(/nope-2/);
    await expect(
      client.runs.wait(id, "three-steps", { input: null, checkpointId: "nope-3" }),
    ).rejects.toThrow(/404/);
    const res = await fetch(`${h.url}/threads/${id}/runs/wait`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ assistant_id: "three-steps", checkpoint_id: "nope-4" }),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "checkpoint-not-found" });
    expect((await client.threads.getHistory(id, { limit: 100 })).length).toBe(history.length);
  });

  it("an asNode the graph does not have is a 422 naming the field and the graph's nodes; nothing is written", async () => {
    const { client, id, history } = await ranThreeSteps();
    const res = await fetch(`${h.url}/threads/${id}/state`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ values: { n: 1 }, as_node: "nope" }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: string; message: string; hint: string };
    expect(body).toMatchObject({ error: "invalid-input" });
    expect(body.message).toContain("`nope`");
    expect(body.hint).toContain("`one`, `two`, `three`");
    await expect(
      client.threads.updateState(id, { values: { n: 1 }, asNode: "nope" }),
    ).rejects.toThrow(/422/);
    expect((await client.threads.getHistory(id, { limit: 100 })).length).toBe(history.length);
  });

  it("deleting a thread with a run in progress is a 409 thread-busy; nothing is deleted", async () => {
    const client = h.client();
    const { thread_id: id } = await client.threads.create();
    const run = await client.runs.create(id, "gated", { input: {} });
    await until(() => gates().length === 1);
    const res = await fetch(`${h.url}/threads/${id}`, { method: "DELETE" });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: "thread-busy" });
    await expect(client.threads.delete(id)).rejects.toThrow(/409/);
    gates().shift()!();
    expect(await client.runs.join(id, run.run_id)).toMatchObject({ done: true });
    expect((await client.threads.get(id)).values).toMatchObject({ done: true });
    await client.threads.delete(id);
    await expect(client.threads.get(id)).rejects.toThrow(/404/);
  });
});

async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setTimeout(r, 5));
}

describe("threads as the page lists them", () => {
  it("a thread's metadata names the graph and assistant of its latest run, as on LangGraph's server", async () => {
    const client = h.client();
    const { thread_id: id } = await client.threads.create({ metadata: { owner: "ann" } });
    expect((await client.threads.get(id)).metadata).toEqual({ owner: "ann" });
    const [own] = await client.assistants.search({ graphId: "three-steps" });
    await client.runs.wait(id, "three-steps", { input: {} });
    expect((await client.threads.get(id)).metadata).toEqual({
      owner: "ann",
      graph_id: "three-steps",
      assistant_id: own!.assistant_id,
    });
    // Found by graph, or by assistant id (agent-chat-ui's thread list for an assistant given by id).
    for (const metadata of [{ graph_id: "three-steps" }, { assistant_id: own!.assistant_id }]) {
      const found = await client.threads.search({ metadata, limit: 100 });
      expect(found.map((t) => t.thread_id)).toContain(id);
    }
    // A saved assistant's run on it: the thread is that assistant's now.
    const saved = await client.assistants.create({ graphId: "three-steps", name: "saved" });
    await client.runs.wait(id, saved.assistant_id, { input: {} });
    expect((await client.threads.get(id)).metadata).toMatchObject({
      graph_id: "three-steps",
      assistant_id: saved.assistant_id,
    });
    // A thread a run makes (`if_not_exists: "create"`) starts with both.
    const made = randomUUID();
    await client.runs.wait(made, "three-steps", { input: {}, ifNotExists: "create" });
    expect((await client.threads.get(made)).metadata).toEqual({
      graph_id: "three-steps",
      assistant_id: own!.assistant_id,
    });
  });
});
