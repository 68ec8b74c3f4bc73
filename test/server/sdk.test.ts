/**
 * The official `@langchain/langgraph-sdk` Client against `startServer` on 127.0.0.1: assistants,
 * threads, runs in every stream mode to an interrupt, resume with `command`, state, history,
 * search, delete, `runs.wait`, a background run joined from a second client, a busy thread.
 */
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

describe("the SDK Client against graphspec's server", () => {
  it("answers /ok and /health", async () => {
    expect(await (await fetch(`${h.url}/ok`)).json()).toEqual({ ok: true });
    expect((await fetch(`${h.url}/health`)).status).toBe(200);
  });

  it("lists one assistant per graph, with the spec's schemas and its drawing", async () => {
    const client = h.client();
    const assistants = await client.assistants.search({ limit: 10 });
    expect(assistants.map((a) => a.graph_id).sort()).toEqual([
      "approval",
      "chooser",
      "gated",
      "three-steps",
    ]);
    const approval = assistants.find((a) => a.graph_id === "approval")!;
    expect(await client.assistants.get(approval.assistant_id)).toMatchObject({
      graph_id: "approval",
    });
    const schemas = await client.assistants.getSchemas("approval");
    expect(Object.keys((schemas.input_schema as { properties: object }).properties)).toEqual([
      "draft",
    ]);
    const graph = await client.assistants.getGraph("approval");
    expect(graph.edges).toContainEqual(
      expect.objectContaining({ source: "ask", target: "send", conditional: true }),
    );
  });

  it("streams a run to its interrupt in each stream mode, and resumes it with command", async () => {
    const client = h.client();
    for (const mode of [
      "values",
      "updates",
      "messages",
      "messages-tuple",
      "custom",
      "events",
      "debug",
    ] as const) {
      const thread = await client.threads.create();
      const events = await collect(
        client.runs.stream(thread.thread_id, "approval", {
          input: { draft: `hi ${mode}` },
          streamMode: mode,
        }),
      );
      expect(events[0]!.event, mode).toBe("metadata");
      const names = new Set(events.map((e) => e.event));
      if (mode === "values") {
        const last = events.at(-1)!.data as Record<string, unknown>;
        expect(last.__interrupt__).toMatchObject([
          { value: { question: "Send this reply?", draft: "hi values" } },
        ]);
      }
      if (mode === "updates")
        expect(events.some((e) => "prepare" in (e.data as object))).toBe(true);
      if (mode === "events") expect(names.has("events")).toBe(true);
      if (mode === "debug") expect(names.has("debug")).toBe(true);
      const state = await client.threads.getState(thread.thread_id);
      expect(state.next, mode).toEqual(["ask"]);
      expect(state.tasks[0]!.interrupts[0]!.value).toMatchObject({ draft: `hi ${mode}` });
      expect((await client.threads.get(thread.thread_id)).status).toBe("interrupted");
      const resumed = await collect(
        client.runs.stream(thread.thread_id, "approval", {
          command: { resume: true },
          streamMode: "values",
        }),
      );
      expect(resumed.at(-1)!.data).toMatchObject({
        draft: `hi ${mode} (sent)`,
        log: ["prepared", "sent"],
      });
    }
  });

  it("streams subgraph-namespaced events with streamSubgraphs, and the plain ones without a namespace", async () => {
    const client = h.client();
    const thread = await client.threads.create();
    const events = await collect(
      client.runs.stream(thread.thread_id, "three-steps", {
        input: {},
        streamMode: ["updates"],
        streamSubgraphs: true,
      }),
    );
    expect(events.filter((e) => e.event === "updates").length).toBe(3);
  });

  it("runs.wait answers the final values; state, history, search and delete follow the thread", async () => {
    const client = h.client();
    const thread = await client.threads.create({ metadata: { owner: "ann" } });
    const values = await client.runs.wait(thread.thread_id, "three-steps", { input: {} });
    expect(values).toMatchObject({ n: 3, path: ["one", "two", "three"] });
    const history = await client.threads.getHistory(thread.thread_id, { limit: 20 });
    expect(history.length).toBeGreaterThanOrEqual(4);
    expect(history[0]!.values).toMatchObject({ n: 3 });
    const found = await client.threads.search({ metadata: { owner: "ann" } });
    expect(found.map((t) => t.thread_id)).toEqual([thread.thread_id]);
    await client.threads.updateState(thread.thread_id, { values: { n: 10 }, asNode: "three" });
    expect((await client.threads.getState(thread.thread_id)).values).toMatchObject({ n: 13 });
    await client.threads.delete(thread.thread_id);
    await expect(client.threads.get(thread.thread_id)).rejects.toThrow(/404/);
  });

  it("creates threads with ifExists, and any string is a thread id", async () => {
    const client = h.client();
    const id = "acct-42:conversation 7";
    const first = await client.threads.create({ threadId: id, metadata: { a: 1 } });
    expect(first.thread_id).toBe(id);
    await expect(client.threads.create({ threadId: id })).rejects.toThrow(/409/);
    const again = await client.threads.create({ threadId: id, ifExists: "do_nothing" });
    expect(again.metadata).toMatchObject({ a: 1 });
    expect(await client.runs.wait(id, "three-steps", { input: {} })).toMatchObject({ n: 3 });
  });

  it("a background run is joined from a second client; a second run on the busy thread is a 409", async () => {
    const a = h.client();
    const b = h.client();
    const thread = await a.threads.create();
    const run = await a.runs.create(thread.thread_id, "gated", { input: {} });
    await until(() => gates().length === 1);
    expect((await b.threads.get(thread.thread_id)).status).toBe("busy");
    await expect(b.runs.create(thread.thread_id, "gated", { input: {} })).rejects.toThrow(/409/);
    await expect(b.runs.wait(thread.thread_id, "gated", { input: {} })).rejects.toThrow(
      /thread-busy/,
    );
    const joined = b.runs.join(thread.thread_id, run.run_id);
    gates().shift()!();
    expect(await joined).toMatchObject({ done: true });
    expect((await b.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
  });

  it("a queued background run keeps the stream modes it was created with: joinStream replays them from the start", async () => {
    const client = h.client();
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "gated", {
      input: {},
      streamMode: ["tasks", "values"],
    });
    await until(() => gates().length === 1);
    const joined = collect(client.runs.joinStream(thread.thread_id, run.run_id));
    gates().shift()!();
    const events = (await joined) as { event: string; data: { name?: string } }[];
    const tasks = events.filter((e) => e.event === "tasks").map((e) => e.data.name);
    expect(tasks).toEqual(["hold", "hold"]);
    expect(events.some((e) => e.event === "values")).toBe(true);
  });

  it("a client that disconnects mid-stream does not lose its run: it joins it", async () => {
    const client = h.client();
    const thread = await client.threads.create();
    const stop = new AbortController();
    let runId = "";
    const stream = client.runs.stream(thread.thread_id, "gated", {
      input: {},
      signal: stop.signal,
      onRunCreated: (m) => {
        runId = m.run_id;
      },
    });
    for await (const e of stream) if (e.event === "metadata") break;
    stop.abort();
    await until(() => gates().length === 1);
    gates().shift()!();
    expect(await client.runs.join(thread.thread_id, runId)).toMatchObject({ done: true });
  });
});

async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setTimeout(r, 5));
}
