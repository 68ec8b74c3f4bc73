/** Assistants: one per graph, read-only — search, get, graph, schemas. */
import { Hono } from "hono";
import type { StandInCatalog, StandInOffer } from "../run/executor-api.js";
import { notFound } from "./api-error.js";
import { graphspecMetadata } from "./assistant-metadata.js";
import { type GraphEntry, graphSchemas } from "./graph-catalog.js";
import { graphDrawing, xrayDepth } from "./graph-drawing.js";
import { modelsMetadata } from "./model-prices.js";
import { AssistantSearch, jsonBody, parsed } from "./request-body.js";
import { subgraphTools } from "./run-config-schema.js";
import type { ServerEnv, ServerParts } from "./server-parts.js";
import { reducersMetadata } from "./state-reducers.js";

const EPOCH = new Date(0).toISOString();

/** graphspec dev: `version` is the version that serves (0: none yet), `updated_at` when it came in. */
export const assistantOf = (
  g: GraphEntry,
  standIns?: { offers: StandInOffer[]; withoutOne: StandInCatalog["withoutOne"] },
) => ({
  assistant_id: g.assistantId,
  graph_id: g.name,
  name: g.name,
  description: g.description ?? null,
  config: {},
  context: {},
  metadata: {
    created_by: "system",
    graphspec: {
      models: modelsMetadata(g.spec),
      reducers: reducersMetadata(g.spec),
      ...(g.status ? graphspecMetadata(g.path, g.status) : {}),
      // graphspec dev: what a run may choose to answer for the models (stand-in-choice.ts).
      ...(standIns ? { stand_ins: standIns.offers, without_stand_in: standIns.withoutOne } : {}),
    },
  },
  version: g.status ? (g.status.version ?? 0) : 1,
  created_at: EPOCH,
  updated_at: g.status ? g.status.updatedAt.toISOString() : EPOCH,
});

export function assistantRoutes(p: ServerParts): Hono<ServerEnv> {
  const api = new Hono<ServerEnv>();
  const find = async (id: string) => {
    const g = await p.graphs.find(id);
    if (!g)
      throw notFound(
        "assistant",
        id,
        "list them with `assistants.search()`; an assistant is a graph's name or id",
      );
    return g;
  };
  const described = async (g: GraphEntry) =>
    assistantOf(
      g,
      p.standIns
        ? { offers: await p.standIns.offers(g.path), withoutOne: p.standIns.withoutOne }
        : undefined,
    );
  api.post("/assistants/search", async (c) => {
    const q = parsed(AssistantSearch, await jsonBody(c, p.maxBodyBytes));
    const all = (await p.graphs.list()).filter(
      (g) => (!q.graph_id || g.name === q.graph_id) && (!q.name || g.name === q.name),
    );
    const offset = q.offset ?? 0;
    return c.json(await Promise.all(all.slice(offset, offset + (q.limit ?? 10)).map(described)));
  });
  api.post("/assistants/count", async (c) => c.json((await p.graphs.list()).length));
  api.get("/assistants/:id", async (c) => c.json(await described(await find(c.req.param("id")))));
  api.get("/assistants/:id/graph", async (c) =>
    c.json(await graphDrawing(await find(c.req.param("id")), xrayDepth(c.req.query("xray")))),
  );
  api.get("/assistants/:id/schemas", async (c) => {
    const g = await find(c.req.param("id"));
    // graphspec dev: the tools its MCP servers gave (`tools: all` names them only once listed).
    const fromServers = (g.status?.mcp ?? []).flatMap((s) => s.tools.map((t) => t.name));
    return c.json(graphSchemas(g, [...(await subgraphTools(g.spec, g.path)), ...fromServers]));
  });
  api.get("/assistants/:id/subgraphs", async (c) => {
    await find(c.req.param("id"));
    return c.json({});
  });
  return api;
}
