/**
 * LangGraph's own Auth handler (`@langchain/langgraph-sdk/auth`), loaded by path as a
 * langgraph.json names it, behind the official SDK Client: `authenticate` from a bearer token,
 * `on` callbacks that stamp owner and workspace on what is created and return filters that scope
 * every thread action to them — applied as the LangGraph server applies them: a thread whose
 * metadata does not match is not found (404), not listed, not deleted.
 */
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../server/harness.js";

const HANDLER = join(import.meta.dirname, "../fixtures/server/auth/workspaces.ts:auth");
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ authHandler: HANDLER });
});
afterAll(async () => {
  await h?.stop();
});

const as = (token: string) =>
  new Client({
    apiUrl: h.url,
    defaultHeaders: { Authorization: `Bearer ${token}` },
    callerOptions: { maxRetries: 0 },
  });

describe("an Auth handler's filters", () => {
  it("stamp the thread's metadata on create, and a thread outside them is 404 everywhere", async () => {
    const work = as("alice-work-token");
    const home = as("alice-home-token");
    const thread = await work.threads.create({ metadata: { topic: "q3" } });
    expect(thread.metadata).toMatchObject({ topic: "q3", owner: "alice", workspace: "work" });
    const run = await work.runs.create(thread.thread_id, "three-steps", { input: {} });
    expect(await work.runs.join(thread.thread_id, run.run_id)).toMatchObject({ n: 3 });
    expect((await work.threads.getState(thread.thread_id)).values).toMatchObject({ n: 3 });

    // The same user, through the token of another workspace: the handler's filters do not match.
    const id = thread.thread_id;
    await expect(home.threads.get(id)).rejects.toThrow(/404/);
    await expect(home.threads.getState(id)).rejects.toThrow(/404/);
    await expect(home.threads.getHistory(id)).rejects.toThrow(/404/);
    await expect(home.threads.update(id, { metadata: { topic: "x" } })).rejects.toThrow(/404/);
    await expect(home.threads.updateState(id, { values: { n: 1 } })).rejects.toThrow(/404/);
    await expect(home.runs.list(id)).rejects.toThrow(/404/);
    await expect(home.runs.get(id, run.run_id)).rejects.toThrow(/404/);
    await expect(home.runs.join(id, run.run_id)).rejects.toThrow(/404/);
    await expect(home.runs.wait(id, "three-steps", { input: {} })).rejects.toThrow(/404/);
    await expect(home.threads.delete(id)).rejects.toThrow(/404/);
    await expect(home.threads.create({ threadId: id, ifExists: "do_nothing" })).rejects.toThrow(
      /409/,
    );
    expect((await home.threads.search({ limit: 100 })).map((t) => t.thread_id)).not.toContain(id);
    expect((await work.threads.search({ limit: 100 })).map((t) => t.thread_id)).toContain(id);
    expect((await work.threads.get(id)).metadata).toMatchObject({ topic: "q3" });
  });

  it("a thread a run creates carries the metadata the handler stamped on the run", async () => {
    const work = as("alice-work-token");
    const home = as("alice-home-token");
    const values = await home.runs.wait("made-by-a-run", "three-steps", {
      input: {},
      ifNotExists: "create",
    });
    expect(values).toMatchObject({ n: 3 });
    expect((await home.threads.get("made-by-a-run")).metadata).toMatchObject({
      owner: "alice",
      workspace: "home",
      graph_id: "three-steps",
    });
    await expect(work.threads.get("made-by-a-run")).rejects.toThrow(/404/);
  });

  it("deleting by prefix deletes only the threads the filters match", async () => {
    const work = as("alice-work-token");
    const home = as("alice-home-token");
    await work.threads.create({ threadId: "pfx-work" });
    await home.threads.create({ threadId: "pfx-home" });
    const res = await fetch(`${h.url}/threads/prune`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer alice-home-token" },
      body: JSON.stringify({ prefix: "pfx-" }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { deleted: string[] }).deleted).toEqual(["pfx-home"]);
    expect((await work.threads.get("pfx-work")).thread_id).toBe("pfx-work");
    await expect(home.threads.get("pfx-home")).rejects.toThrow(/404/);
  });

  it("false refuses (403), a thrown HTTPException keeps its status, no token is a 401", async () => {
    const reader = as("reader-token");
    await expect(reader.threads.create()).rejects.toThrow(/403/);
    await expect(reader.threads.delete("anything")).rejects.toThrow(/403/);
    await expect(as("not-a-token").threads.search()).rejects.toThrow(/401/);
    const bare = await fetch(`${h.url}/threads/search`, { method: "POST", body: "{}" });
    expect(bare.status).toBe(401);
    expect(await bare.json()).toMatchObject({ error: "unauthorized", message: "Invalid token" });
  });
});
