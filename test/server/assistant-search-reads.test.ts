/**
 * `assistants.search` by graph id or name describes only the graphs those leave: before, every
 * graph was described (its models, reducers and graphspec dev's stand-ins, read from disk) and
 * then dropped. Through the official SDK against startServer from the package entry, with a
 * stand-in catalog that counts which specs it was asked about.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExecutor, folderCatalog, type RunningServer, startServer } from "../../src/index.js";
import { GRAPHS } from "./harness.js";

const asked: string[] = [];
let dir: string;
let server: RunningServer;
let client: Client;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "graphspec-search-reads-"));
  server = await startServer({
    exec: createExecutor({ dir: GRAPHS, checkpointer: "memory" }),
    graphs: await folderCatalog(GRAPHS),
    auth: undefined,
    standIns: {
      withoutOne: "provider",
      offers: async (path) => {
        asked.push(basename(path));
        return [];
      },
      choose: async () => undefined,
    },
  });
  client = new Client({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
});
afterAll(async () => {
  await server?.close(1000);
  rmSync(dir, { recursive: true, force: true });
});

describe("assistants.search", () => {
  it("by graph id describes that graph only", async () => {
    asked.length = 0;
    const found = await client.assistants.search({ graphId: "three-steps" });
    expect(found.map((a) => a.graph_id)).toEqual(["three-steps"]);
    expect(asked).toEqual(["three-steps.yaml"]);
  });

  it("by name describes the graphs whose name has it", async () => {
    asked.length = 0;
    const found = await client.assistants.search({ name: "STEPS" });
    expect(found.map((a) => a.name)).toEqual(["three-steps"]);
    expect(asked).toEqual(["three-steps.yaml"]);
  });

  it("by metadata still describes each graph to match it", async () => {
    asked.length = 0;
    const found = await client.assistants.search({ metadata: { created_by: "system" } });
    expect(found.map((a) => a.graph_id).sort()).toEqual(
      ["approval", "chooser", "gated", "three-steps"].sort(),
    );
    expect(asked.sort()).toEqual(
      ["approval.yaml", "chooser.yaml", "gated.yaml", "three-steps.yaml"].sort(),
    );
  });
});
