/**
 * The compatibility matrix: the same scenarios, through the newest `@langchain/langgraph-sdk` this
 * repository installs and through the oldest minor graphspec claims (the `-oldest` alias), against
 * the server `graphspec serve` runs. docs/server.md names the versions; a scenario that only one
 * client passes is a broken claim.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client as LatestClient } from "@langchain/langgraph-sdk";
import { Client as OldestClient } from "@langchain/langgraph-sdk-oldest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gates } from "../support/gates.js";
import { collect, type Harness, startHarness } from "./harness.js";

const versionOf = (pkg: string) =>
  (
    JSON.parse(
      readFileSync(join(import.meta.dirname, "../../node_modules", pkg, "package.json"), "utf8"),
    ) as { version: string }
  ).version;

// Typed as the newest Client: the scenarios use only calls both versions have; what proves the
// old one is that it runs them.
type Client = LatestClient;
const clients: [string, (apiUrl: string) => Client][] = [
  [
    `@langchain/langgraph-sdk ${versionOf("@langchain/langgraph-sdk")} (latest)`,
    (apiUrl) => new LatestClient({ apiUrl, callerOptions: { maxRetries: 0 } }),
  ],
  [
    `@langchain/langgraph-sdk ${versionOf("@langchain/langgraph-sdk-oldest")} (oldest claimed)`,
    (apiUrl) =>
      new OldestClient({ apiUrl, callerOptions: { maxRetries: 0 } }) as unknown as LatestClient,
  ],
];

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ scripts: { small: [{ text: "hello from small" }] } });
});
afterAll(async () => {
  // A cancelled run's node may still wait at its gate: open it so the server can close.
  for (const open of gates().splice(0)) open();
  await h?.stop();
});

describe.each(clients)("%s against graphspec's server", (_name, connect) => {
  let client: Client;
  beforeAll(() => {
    client = connect(h.url);
  });

  it("assistants: search, get, graph and schemas", async () => {
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
    const graph = await client.assistants.getGraph("approval");
    expect(graph.edges).toContainEqual(
      expect.objectContaining({ source: "ask", target: "send", conditional: true }),
    );
    const schemas = await client.assistants.getSchemas("approval");
    expect(Object.keys((schemas.input_schema as { properties: object }).properties)).toEqual([
      "draft",
    ]);
  });

  it("saved assistants: create, update, getVersions, setLatest, a run with one, delete", async () => {
    const saved = await client.assistants.create({
      graphId: "three-steps",
      name: `saved by ${_name}`,
      config: { recursion_limit: 2 },
    });
    expect(saved).toMatchObject({ graph_id: "three-steps", version: 1 });
    const two = await client.assistants.update(saved.assistant_id, { config: {} });
    expect(two.version).toBe(2);
    expect((await client.assistants.getVersions(saved.assistant_id)).length).toBe(2);
    expect((await client.assistants.setLatest(saved.assistant_id, 1)).version).toBe(1);
    // Version 1's recursion limit of 2 stops the three steps.
    const thread = await client.threads.create();
    // Thrown by the newer client, answered as `__error__` by the older.
    const outcome = await client.runs
      .wait(thread.thread_id, saved.assistant_id, { input: {} })
      .then(
        (v) => JSON.stringify(v),
        (e) => String(e),
      );
    expect(outcome).toContain("recursion-limit");
    await client.assistants.delete(saved.assistant_id);
    await expect(client.assistants.get(saved.assistant_id)).rejects.toThrow(/404/);
  });

  it("threads: create, get, search, runs.wait, state, history, updateState, delete", async () => {
    const owner = `owner-${_name}`;
    const thread = await client.threads.create({ metadata: { owner } });
    expect((await client.threads.get(thread.thread_id)).metadata).toMatchObject({ owner });
    const values = await client.runs.wait(thread.thread_id, "three-steps", { input: {} });
    expect(values).toMatchObject({ n: 3, path: ["one", "two", "three"] });
    const found = await client.threads.search({ metadata: { owner } });
    expect(found.map((t) => t.thread_id)).toEqual([thread.thread_id]);
    const state = await client.threads.getState(thread.thread_id);
    expect(state.values).toMatchObject({ n: 3 });
    expect(state.next).toEqual([]);
    const history = await client.threads.getHistory(thread.thread_id, { limit: 20 });
    expect(history[0]!.values).toMatchObject({ n: 3 });
    expect(history.length).toBeGreaterThanOrEqual(4);
    // A finished task carries what its node wrote (`result`), as LangGraph's server gives it.
    expect(history[1]!.tasks).toMatchObject([{ name: "three", result: { n: 1, path: ["three"] } }]);
    await client.threads.updateState(thread.thread_id, { values: { n: 10 }, asNode: "three" });
    expect((await client.threads.getState(thread.thread_id)).values).toMatchObject({ n: 13 });
    await client.threads.delete(thread.thread_id);
    await expect(client.threads.get(thread.thread_id)).rejects.toThrow(/404/);
  });

  it("a thread id that is any string (colon, space) is created and run", async () => {
    const id = `acct-42:conversation ${_name.includes("oldest") ? "old" : "new"}`;
    expect((await client.threads.create({ threadId: id })).thread_id).toBe(id);
    expect(await client.runs.wait(id, "three-steps", { input: {} })).toMatchObject({ n: 3 });
    expect((await client.threads.getState(id)).values).toMatchObject({ n: 3 });
  });

  it.each(["values", "updates", "events", "debug"] as const)(
    "runs.stream in %s mode to an interrupt; Command({resume}) finishes it",
    async (mode) => {
      const thread = await client.threads.create();
      const events = await collect(
        client.runs.stream(thread.thread_id, "approval", {
          input: { draft: `hi ${mode}` },
          streamMode: mode,
        }),
      );
      expect(events[0]!.event).toBe("metadata");
      expect(events.slice(1).length).toBeGreaterThan(0);
      for (const e of events.slice(1)) expect(e.event).toBe(mode);
      if (mode === "values")
        expect((events.at(-1)!.data as Record<string, unknown>).__interrupt__).toMatchObject([
          { value: { question: "Send this reply?", draft: "hi values" } },
        ]);
      if (mode === "updates")
        expect(events.some((e) => "prepare" in (e.data as object))).toBe(true);
      const paused = await client.threads.getState(thread.thread_id);
      expect(paused.next).toEqual(["ask"]);
      expect(paused.tasks[0]!.interrupts[0]!.value).toMatchObject({ draft: `hi ${mode}` });
      expect((await client.threads.get(thread.thread_id)).status).toBe("interrupted");
      const done = await client.runs.wait(thread.thread_id, "approval", {
        command: { resume: true },
      });
      expect(done).toMatchObject({ draft: `hi ${mode} (sent)`, log: ["prepared", "sent"] });
      expect((await client.threads.get(thread.thread_id)).status).toBe("idle");
    },
  );

  it("runs.stream with several modes at once, and subgraph namespaces", async () => {
    const thread = await client.threads.create();
    const events = await collect(
      client.runs.stream(thread.thread_id, "three-steps", {
        input: {},
        streamMode: ["values", "updates"],
        streamSubgraphs: true,
      }),
    );
    // Only the modes asked for (the official server adds `checkpoints` here: docs/deploy.md).
    expect(new Set(events.map((e) => e.event))).toEqual(new Set(["metadata", "values", "updates"]));
    expect(events.filter((e) => e.event === "updates").length).toBe(3);
    expect(events.filter((e) => e.event === "values").at(-1)!.data).toMatchObject({ n: 3 });
  });

  it("runs.stream in messages-tuple mode: the model's chunks, with their metadata", async () => {
    const thread = await client.threads.create();
    const events = await collect(
      client.runs.stream(thread.thread_id, "chooser", {
        input: { messages: [{ role: "user", content: "hi" }] },
        streamMode: "messages-tuple",
      }),
    );
    const chunks = (
      events.filter((e) => e.event === "messages") as {
        data: [{ type: string; content: string }, { langgraph_node?: string }];
      }[]
    ).filter((e) => /^ai/i.test(e.data[0].type));
    expect(chunks.map((e) => e.data[0].content).join("")).toBe("hello from small");
    expect(chunks[0]!.data[1].langgraph_node).toBe("work");
  });

  it("a background run: joinStream replays it from the start; join answers its values", async () => {
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "gated", {
      input: {},
      streamMode: ["values"],
    });
    await until(() => gates().length === 1);
    expect((await client.threads.get(thread.thread_id)).status).toBe("busy");
    const joined = collect(client.runs.joinStream(thread.thread_id, run.run_id));
    gates().shift()!();
    const events = await joined;
    expect(events.filter((e) => e.event === "values").at(-1)!.data).toMatchObject({ done: true });
    expect(await client.runs.join(thread.thread_id, run.run_id)).toMatchObject({ done: true });
    expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("success");
  });

  it("cancel stops a run in flight; the thread takes the next run", async () => {
    const thread = await client.threads.create();
    const run = await client.runs.create(thread.thread_id, "gated", { input: {} });
    await until(() => gates().length === 1);
    await client.runs.cancel(thread.thread_id, run.run_id, true);
    expect((await client.runs.get(thread.thread_id, run.run_id)).status).toBe("interrupted");
    expect((await client.threads.get(thread.thread_id)).status).not.toBe("busy");
    // The cancelled run's node still waits at its gate: opening it now changes nothing.
    gates().shift()!();
    const next = await client.runs.create(thread.thread_id, "gated", { input: {} });
    await until(() => gates().length === 1);
    gates().shift()!();
    expect(await client.runs.join(thread.thread_id, next.run_id)).toMatchObject({ done: true });
  });
});

async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await new Promise((r) => setTimeout(r, 5));
}
