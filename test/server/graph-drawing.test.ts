/**
 * `GET /assistants/{id}/graph` through the official SDK against a real server: what the drawing
 * tells of a spec (kinds, descriptions, breakpoints, pause points, conditions, routers, maps,
 * joins, fan-out, unreachable nodes) and `xray`, on test/fixtures/drawing.
 */
import { join } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DrawableEdge, DrawableGraph } from "../../src/draw/drawable.js";
import { createExecutor, folderCatalog, type RunningServer, startServer } from "../../src/index.js";

const DIR = join(import.meta.dirname, "../fixtures/drawing");
let server: RunningServer;
let client: Client;

beforeAll(async () => {
  server = await startServer({
    exec: createExecutor({ dir: DIR, checkpointer: "memory" }),
    graphs: await folderCatalog(DIR),
    auth: undefined,
    port: 0,
  });
  client = new Client({ apiUrl: server.url, apiKey: null, callerOptions: { maxRetries: 0 } });
});
afterAll(() => server?.close(1000));

const draw = async (xray?: boolean | number) =>
  (await client.assistants.getGraph(
    "everything",
    xray === undefined ? undefined : { xray },
  )) as unknown as DrawableGraph;
const node = (g: DrawableGraph, id: string) => g.nodes.find((n) => n.id === id);
const edges = (g: DrawableGraph, source: string) =>
  g.edges.filter((e) => e.source === source).sort((a, b) => a.target.localeCompare(b.target));

describe("the drawing of a graph (GET /assistants/{id}/graph)", () => {
  it("keeps LangGraph's shape: __start__ … __end__, runnable nodes, edges with source/target/conditional", async () => {
    const g = await draw();
    expect(g.nodes[0]).toMatchObject({ id: "__start__", type: "schema", data: "__start__" });
    expect(g.nodes.at(-1)).toMatchObject({ id: "__end__", type: "schema", data: "__end__" });
    expect(node(g, "triage")).toMatchObject({
      type: "runnable",
      data: { id: "triage", name: "triage" },
    });
    expect(g.edges).toContainEqual(
      expect.objectContaining({ source: "__start__", target: "triage", conditional: false }),
    );
    for (const e of g.edges) expect(typeof e.conditional).toBe("boolean");
  });

  it("gives every node its kind and description in metadata", async () => {
    const g = await draw();
    expect(node(g, "triage")?.metadata).toMatchObject({
      kind: "set",
      description: "Decides how urgent it is.",
    });
    expect(node(g, "pick")?.metadata?.kind).toBe("function");
    expect(node(g, "sub")?.metadata).toMatchObject({ kind: "subgraph", subgraph: "outer.yaml" });
    expect(node(g, "__start__")?.metadata?.kind).toBe("start");
    expect(node(g, "__end__")?.metadata?.kind).toBe("end");
  });

  it("marks static breakpoints and the nodes that can pause for a person", async () => {
    const g = await draw();
    expect(node(g, "left")?.metadata?.interrupt).toEqual(["before"]);
    expect(node(g, "right")?.metadata?.interrupt).toEqual(["after"]);
    expect(node(g, "ask")?.metadata?.pauses).toBe(true);
    expect(node(g, "bot")?.metadata).toMatchObject({
      kind: "agent",
      pauses: true,
      approve: ["notify"],
    });
    expect(node(g, "triage")?.metadata?.pauses).toBeUndefined();
    expect(node(g, "triage")?.metadata?.interrupt).toBeUndefined();
  });

  it("labels route cases with their CEL condition or default", async () => {
    const [ask, pick] = edges(await draw(), "triage");
    expect(ask).toMatchObject({
      target: "ask",
      conditional: true,
      kind: "route",
      data: "state.urgent",
      when: "state.urgent",
    });
    expect(pick).toMatchObject({
      target: "pick",
      conditional: true,
      data: "default",
      default: true,
    });
  });

  it("labels a router's edges with its name, one to every declared target", async () => {
    const out = edges(await draw(), "pick");
    expect(out.map((e) => e.target)).toEqual(["bot", "left"]);
    for (const e of out)
      expect(e).toMatchObject({ conditional: true, kind: "router", data: "./tools.ts#next" });
  });

  it("marks a map edge as Send fan-out over its list", async () => {
    expect(edges(await draw(), "merge")).toEqual([
      expect.objectContaining({
        target: "each",
        conditional: true,
        kind: "map",
        send: true,
        over: "state.items",
        data: "map state.items",
      }),
    ]);
  });

  it("shows a join as edges that name every source that must finish, and fan-out as parallel edges", async () => {
    const g = await draw();
    const join = g.edges.filter((e) => e.target === "merge");
    expect(join.map((e) => e.source).sort()).toEqual(["left", "right"]);
    for (const e of join) expect(e.join).toEqual(["left", "right"]);
    const fanOut = edges(g, "ask");
    expect(fanOut.map((e) => e.target)).toEqual(["left", "right"]);
    for (const e of fanOut)
      expect(e).toMatchObject({ conditional: false, parallel: ["left", "right"] });
  });

  it("marks nodes compile leaves out as unreachable rather than dropping them", async () => {
    const g = await draw();
    expect(node(g, "orphan")?.metadata).toMatchObject({
      unreachable: true,
      description: "Nothing leads here.",
    });
    expect(node(g, "triage")?.metadata?.unreachable).toBeUndefined();
    expect(edges(g, "orphan")).toEqual([
      expect.objectContaining({ target: "__end__", conditional: false }),
    ]);
  });

  it("without xray, a subgraph is one node", async () => {
    const g = await draw();
    expect(g.nodes.filter((n) => n.id.includes(":"))).toEqual([]);
  });

  it("with xray: 1 expands one level, ids prefixed parent:child, each with metadata.parent", async () => {
    const g = await draw(1);
    expect(node(g, "sub")).toBeUndefined();
    expect(node(g, "sub:inner")?.metadata).toMatchObject({ kind: "subgraph", parent: "sub" });
    expect(node(g, "sub:finish")?.metadata).toMatchObject({ kind: "set", parent: "sub" });
    expect(node(g, "sub:inner:summarize")).toBeUndefined();
    // Edges into the subgraph go to its start, edges out of it leave its end.
    expect(g.edges).toContainEqual(
      expect.objectContaining({ source: "each", target: "sub:__start__" }),
    );
    expect(g.edges).toContainEqual(
      expect.objectContaining({ source: "sub:__end__", target: "__end__" }),
    );
    expect(g.edges).toContainEqual(
      expect.objectContaining({ source: "sub:__start__", target: "sub:inner" }),
    );
  });

  it("with xray: true expands every level", async () => {
    const g = await draw(true);
    expect(node(g, "sub:inner")).toBeUndefined();
    expect(node(g, "sub:inner:summarize")?.metadata).toMatchObject({
      kind: "set",
      parent: "sub:inner",
    });
    expect(g.edges).toContainEqual(
      expect.objectContaining({ source: "sub:inner:__end__", target: "sub:finish" }),
    );
    // Every edge joins two nodes of the drawing.
    const ids = new Set(g.nodes.map((n) => n.id));
    for (const e of g.edges as DrawableEdge[]) {
      expect(ids).toContain(e.source);
      expect(ids).toContain(e.target);
    }
  });
});
