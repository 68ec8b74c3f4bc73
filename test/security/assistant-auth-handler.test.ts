/**
 * LangGraph's Auth handler over saved assistants, behind the official SDK: `assistants:create`
 * stamps the metadata or refuses (403), and the filters of `assistants` (read, search, update,
 * delete) scope the caller's saved assistants — one outside them is not found (404), not listed,
 * not changed, not deleted, even in the same tenant.
 */
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../server/harness.js";

const HANDLER = join(import.meta.dirname, "../fixtures/server/auth/assistant-workspaces.ts:auth");
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

describe("an Auth handler over saved assistants", () => {
  it("stamps what is saved, and one outside its filters is 404 everywhere", async () => {
    const work = as("alice-work-token");
    const home = as("alice-home-token");
    const saved = await work.assistants.create({ graphId: "three-steps", name: "work's" });
    expect(saved.metadata).toEqual({ workspace: "work" });
    const id = saved.assistant_id;
    expect((await work.assistants.get(id)).name).toBe("work's");

    const listed = await home.assistants.search({ limit: 100 });
    expect(listed.map((a) => a.assistant_id)).not.toContain(id);
    // The graphs' own assistants stay listed: the filters scope saved ones.
    expect(listed.map((a) => a.name)).toContain("three-steps");
    for (const attempt of [
      () => home.assistants.get(id),
      () => home.assistants.getSchemas(id),
      () => home.assistants.getVersions(id),
      () => home.assistants.update(id, { name: "home's now" }),
      () => home.assistants.setLatest(id, 1),
      () => home.assistants.delete(id),
    ])
      await expect(attempt()).rejects.toThrow(/404/);
    expect((await work.assistants.get(id)).name).toBe("work's");
    await work.assistants.delete(id);
  });

  it("refuses what the handler refuses (403), and nothing is saved", async () => {
    const viewer = as("alice-viewer-token");
    await expect(viewer.assistants.create({ graphId: "three-steps" })).rejects.toThrow(/403/);
    const saved = (await viewer.assistants.search({ limit: 100 })).filter(
      (a) => a.metadata?.created_by !== "system",
    );
    expect(saved).toEqual([]);
  });
});
