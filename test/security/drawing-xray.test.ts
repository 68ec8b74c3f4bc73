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
import { XRAY_MAX_NODES } from "../../src/server/graph-drawing.js";

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

it("xray of specs that mount themselves or each other many times over stays small: a cycle is not opened again, and a drawing holds at most XRAY_MAX_NODES nodes", async () => {
  const graphs = join(project, "many");
  mkdirSync(graphs, { recursive: true });
  const fan = (name: string, child: string) => `version: 1
name: ${name}
state:
  x: { type: string, default: "" }
nodes:
${Array.from({ length: 12 }, (_, i) => `  s${i}: { kind: subgraph, graph: ${child} }`).join("\n")}
edges:
${Array.from({ length: 12 }, (_, i) => `  - { from: START, to: s${i} }\n  - { from: s${i}, to: END }`).join("\n")}
`;
  writeFileSync(join(graphs, "loop.yaml"), fan("loop", "loop.yaml"));
  // Two specs mounting each other twelve times: 12^16 nodes if nothing stopped it.
  writeFileSync(join(graphs, "ping.yaml"), fan("ping", "pong.yaml"));
  writeFileSync(join(graphs, "pong.yaml"), fan("pong", "ping.yaml"));
  for (let i = 0; i < 4; i++)
    writeFileSync(join(graphs, `level${i}.yaml`), fan(`level${i}`, `level${i + 1}.yaml`));
  writeFileSync(
    join(graphs, "level4.yaml"),
    "version: 1\nname: level4\nstate:\n  x: { type: string, default: '' }\nnodes:\n  leaf: { kind: set, values: { x: y } }\nedges:\n  - { from: START, to: leaf }\n  - { from: leaf, to: END }\n",
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
    const loop = await client.assistants.getGraph("loop", { xray: true });
    expect(loop.nodes).toHaveLength(14);
    const ping = await client.assistants.getGraph("ping", { xray: true });
    // ping opens pong (12 × 14 nodes); pong's subgraphs mount ping again, which is not reopened.
    expect(ping.nodes.length).toBeLessThanOrEqual(XRAY_MAX_NODES);
    expect(ping.nodes.filter((n) => String(n.id).split(":").length > 2)).toEqual([]);
    // Five specs, each mounting the next twelve times: 12^4 leaves without the budget.
    const chain = await client.assistants.getGraph("level0", { xray: true });
    expect(chain.nodes.length).toBeLessThanOrEqual(XRAY_MAX_NODES);
    expect(chain.nodes.length).toBeGreaterThan(XRAY_MAX_NODES / 2);
    const ids = new Set(chain.nodes.map((n) => n.id));
    for (const e of chain.edges) {
      expect(ids).toContain(e.source);
      expect(ids).toContain(e.target);
    }
  } finally {
    await server.close(1000);
  }
});
