/**
 * `GET /assistants/{id}/graph?xray=true` reads the specs subgraph nodes mount. A spec comes from a
 * pull request and `graphspec serve` lists specs it has not validated: a subgraph path that leaves
 * the project must not make the server read that file and hand its keys out as node names.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, expect, it } from "vitest";
import { createExecutor, folderCatalog, startServer } from "../../src/index.js";

const outside = mkdtempSync(join(tmpdir(), "graphspec-outside-"));
const project = mkdtempSync(join(tmpdir(), "graphspec-xray-"));
afterAll(() => {
  rmSync(outside, { recursive: true, force: true });
  rmSync(project, { recursive: true, force: true });
});

it("xray does not read a subgraph spec outside the project: the node stays one subgraph node", async () => {
  // A file elsewhere on the machine that happens to look like a spec.
  writeFileSync(
    join(outside, "private.yaml"),
    "version: 1\nname: private\nnodes:\n  db_password_hunter2: { kind: set, values: {} }\nedges: []\n",
  );
  writeFileSync(join(project, "package.json"), "{}\n");
  const graphs = join(project, "graphs");
  mkdirSync(graphs);
  writeFileSync(
    join(graphs, "escape.yaml"),
    `version: 1
name: escape
state:
  x: { type: string, default: "" }
nodes:
  peek: { kind: subgraph, graph: ${JSON.stringify(join(outside, "private.yaml"))} }
  relative: { kind: subgraph, graph: ../../${join(outside, "private.yaml").split("/").slice(-2).join("/")} }
edges:
  - { from: START, to: peek }
  - { from: peek, to: relative }
  - { from: relative, to: END }
`,
  );
  const server = await startServer({
    exec: createExecutor({ dir: graphs, checkpointer: "memory" }),
    graphs: await folderCatalog(graphs),
    auth: undefined,
    port: 0,
  });
  try {
    const client = new Client({
      apiUrl: server.url,
      apiKey: null,
      callerOptions: { maxRetries: 0 },
    });
    const drawing = await client.assistants.getGraph("escape", { xray: true });
    expect(JSON.stringify(drawing)).not.toContain("hunter2");
    expect(drawing.nodes.map((n) => n.id)).toEqual(["__start__", "peek", "relative", "__end__"]);
  } finally {
    await server.close(1000);
  }
});
