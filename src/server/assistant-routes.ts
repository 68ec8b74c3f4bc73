/**
 * Assistants: one per graph, read-only, and each tenant's saved ones (saved-assistant-routes.ts)
 * — search, count, get, graph, schemas, versions.
 */
import { type Context, Hono } from "hono";
import type { StandInCatalog, StandInOffer } from "../run/executor-api.js";
import {
  assistantNotFound,
  assistantWithGraph,
  lookUpAssistant,
  tenantOf,
} from "./assistant-lookup.js";
import { graphspecMetadata } from "./assistant-metadata.js";
import { matchesFilters } from "./auth-filters.js";
import { type GraphEntry, graphSchemas } from "./graph-catalog.js";
import { graphDrawing, xrayDepth } from "./graph-drawing.js";
import { modelsMetadata } from "./model-prices.js";
import { paginationHeaders } from "./pagination-headers.js";
import { AssistantSearch, AssistantVersions, jsonBody, parsed } from "./request-body.js";
import { subgraphTools } from "./run-config-schema.js";
import { savedAssistantRoutes } from "./saved-assistant-routes.js";
import { savedAssistantView, versionView } from "./saved-assistants.js";
import type { ServerEnv, ServerParts } from "./server-parts.js";
import { reducersMetadata } from "./state-reducers.js";
import type { Allow } from "./thread-routes.js";

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

/** A listed assistant, with what search filters and sorts on. */
type Listed = Record<string, unknown> & {
  assistant_id: string;
  graph_id: string;
  name: string;
  created_at: string;
  updated_at: string;
  metadata: Record<string, unknown>;
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Search's filters, as LangGraph's server applies them: name a substring, any case. Without
 * `byMetadata`, only graph id and name (what is known before an assistant is described).
 */
const matches =
  (q: AssistantSearch) =>
  (a: Pick<Listed, "graph_id" | "name" | "metadata">, byMetadata = true) =>
    (!q.graph_id || a.graph_id === q.graph_id) &&
    (!q.name || a.name.toLowerCase().includes(q.name.toLowerCase())) &&
    (!byMetadata || Object.entries(q.metadata ?? {}).every(([k, v]) => same(a.metadata[k], v)));

export function assistantRoutes(p: ServerParts, allow: Allow): Hono<ServerEnv> {
  const api = new Hono<ServerEnv>();
  const described = async (g: GraphEntry) =>
    assistantOf(
      g,
      p.standIns
        ? { offers: await p.standIns.offers(g.path), withoutOne: p.standIns.withoutOne }
        : undefined,
    );
  /**
   * The graphs' assistants, then the tenant's saved ones the Auth handler's `assistants:search`
   * filters match.
   */
  const all = async (c: Context<ServerEnv>, q: AssistantSearch): Promise<Listed[]> => {
    const filters = await allow(c, "assistants", "search", {
      graph_id: q.graph_id,
      metadata: q.metadata,
      limit: q.limit ?? 10,
      offset: q.offset ?? 0,
    });
    const saved = (await p.assistants.list(tenantOf(c))).filter((a) =>
      matchesFilters(a.body.metadata, filters),
    );
    // A graph's id and name are its spec's `name`: the graphs they rule out are not described
    // (models, reducers, graphspec dev's stand-ins read from disk) only to be dropped.
    const named = (await p.graphs.list()).filter((g) =>
      matches(q)({ graph_id: g.name, name: g.name, metadata: {} }, false),
    );
    return [...(await Promise.all(named.map(described))), ...saved.map(savedAssistantView)].filter(
      (a) => matches(q)(a),
    );
  };
  /** The assistant the path names, as the Auth handler's `assistants:read` lets the caller see it. */
  const readFilters = (c: Context<ServerEnv>) =>
    allow(c, "assistants", "read", { assistant_id: c.req.param("id")! });
  const found = async (c: Context<ServerEnv>) => {
    const id = c.req.param("id")!;
    const f = await lookUpAssistant(p, tenantOf(c), id, await readFilters(c));
    if (!f) throw assistantNotFound(id);
    return f;
  };
  const withGraph = async (c: Context<ServerEnv>) =>
    assistantWithGraph(p, tenantOf(c), c.req.param("id")!, await readFilters(c));
  api.post("/assistants/search", async (c) => {
    const q = parsed(AssistantSearch, await jsonBody(c, p.maxBodyBytes));
    const key = q.sort_by ?? "created_at";
    const order = (q.sort_order ?? "desc") === "desc" ? -1 : 1;
    // Sorted stably: the graphs' assistants (all created at the epoch) keep the catalog's order.
    const list = (await all(c, q)).sort(
      (a, b) => order * String(a[key]).localeCompare(String(b[key])),
    );
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 10;
    const page = list.slice(offset, offset + limit);
    paginationHeaders(c, offset, page.length, limit, list.length);
    return c.json(
      q.select
        ? page.map((a) =>
            Object.fromEntries(Object.entries(a).filter(([k]) => q.select!.includes(k))),
          )
        : page,
    );
  });
  api.post("/assistants/count", async (c) => {
    const q = parsed(AssistantSearch, await jsonBody(c, p.maxBodyBytes));
    return c.json((await all(c, q)).length);
  });
  api.get("/assistants/:id", async (c) => {
    const f = await found(c);
    return c.json(f.saved ? savedAssistantView(f.saved) : await described(f.graph!));
  });
  api.get("/assistants/:id/graph", async (c) =>
    c.json(await graphDrawing((await withGraph(c)).graph, xrayDepth(c.req.query("xray")))),
  );
  api.get("/assistants/:id/schemas", async (c) => {
    const { graph } = await withGraph(c);
    // graphspec dev: the tools its MCP servers gave (`tools: all` names them only once listed).
    const fromServers = (graph.status?.mcp ?? []).flatMap((s) => s.tools.map((t) => t.name));
    return c.json(
      graphSchemas(graph, [...(await subgraphTools(graph.spec, graph.path)), ...fromServers]),
    );
  });
  for (const path of ["/assistants/:id/subgraphs", "/assistants/:id/subgraphs/:namespace"])
    api.get(path, async (c) => {
      await withGraph(c);
      return c.json({});
    });
  api.post("/assistants/:id/versions", async (c) => {
    const q = parsed(AssistantVersions, await jsonBody(c, p.maxBodyBytes));
    const f = await found(c);
    // A graph's own assistant has one version: the spec that serves.
    const versions = f.saved
      ? (await p.assistants.versions(tenantOf(c), f.saved.assistant_id)).map((v) =>
          versionView(f.saved!.assistant_id, v),
        )
      : [await described(f.graph!)];
    const offset = q.offset ?? 0;
    return c.json(
      versions
        .filter((v) =>
          Object.entries(q.metadata ?? {}).every(([k, want]) =>
            same((v.metadata as Record<string, unknown>)[k], want),
          ),
        )
        .slice(offset, offset + (q.limit ?? 10)),
    );
  });
  api.route("/", savedAssistantRoutes(p, allow, described));
  return api;
}
