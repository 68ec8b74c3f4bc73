/**
 * Saved assistants' writes: create, update (a new version), set the latest version, delete — in
 * the caller's tenant. A graph's own assistant comes from its spec and is read-only (409).
 */
import { randomUUID } from "node:crypto";
import { type Context, Hono } from "hono";
import { ApiError } from "./api-error.js";
import {
  assistantNotFound,
  type FoundAssistant,
  lookUpAssistant,
  tenantOf,
} from "./assistant-lookup.js";
import type { AuthFilters } from "./auth-filters.js";
import type { GraphEntry } from "./graph-catalog.js";
import {
  AssistantCreate,
  AssistantLatest,
  AssistantPatch,
  jsonBody,
  parsed,
} from "./request-body.js";
import { assistantVersion, openSecrets, savedAssistantView } from "./saved-assistants.js";
import type { ServerEnv, ServerParts } from "./server-parts.js";
import type { Allow } from "./thread-routes.js";

type C = Context<ServerEnv>;

const readOnly = (g: GraphEntry) =>
  new ApiError(
    409,
    "assistant-read-only",
    `assistant \`${g.name}\` is graph \`${g.name}\`'s own, made from its spec: it cannot be changed or deleted`,
    {
      hint: `change the spec, or save an assistant of the graph with your configuration: \`assistants.create({ graphId: "${g.name}", config, context })\``,
    },
  );

export function savedAssistantRoutes(
  p: ServerParts,
  /** The Auth handler's say (`assistants:create`, `update`, `delete`): thread-routes.ts's. */
  allow: Allow,
  /** A graph's own assistant, as `GET /assistants/{id}` shows it. */
  described: (g: GraphEntry) => Promise<unknown>,
): Hono<ServerEnv> {
  const api = new Hono<ServerEnv>();

  const graphNamed = async (id: string) => {
    const g = await p.graphs.find(id);
    if (!g)
      throw new ApiError(422, "graph-not-found", `there is no graph \`${id}\``, {
        field: "graph_id",
        hint: `one of: ${(await p.graphs.list()).map((x) => x.name).join(", ") || "(no graphs)"}`,
      });
    return g;
  };

  /**
   * A saved assistant of the caller's tenant, the Auth handler's `filters` for the action
   * matching its metadata; a graph's own is read-only.
   */
  const savedOf = async (c: C, filters: AuthFilters | undefined) => {
    const id = c.req.param("id")!;
    const f = await lookUpAssistant(p, tenantOf(c), id, filters);
    if (!f) throw assistantNotFound(id);
    if (!f.saved) throw readOnly(f.graph!);
    return f.saved;
  };

  /** `create` of an id taken: the assistant with `if_exists: "do_nothing"`, else a 409. */
  const existing = async (taken: FoundAssistant, ifExists: string | null | undefined) => {
    if (ifExists !== "do_nothing") {
      const id = taken.saved?.assistant_id ?? taken.graph!.assistantId;
      throw new ApiError(409, "assistant-exists", `there is an assistant \`${id}\` already`, {
        field: "assistant_id",
        hint: 'leave assistant_id out to get a new one, pass if_exists: "do_nothing", or change it with `assistants.update`',
      });
    }
    return taken.saved ? savedAssistantView(taken.saved) : described(taken.graph!);
  };

  api.post("/assistants", async (c) => {
    const body = parsed(AssistantCreate, await jsonBody(c, p.maxBodyBytes));
    const tenant = tenantOf(c);
    const graph = await graphNamed(body.graph_id);
    const id = body.assistant_id ?? randomUUID();
    // The handler may add to the metadata (LangGraph's docs stamp `owner`), or refuse (403).
    const asked = {
      assistant_id: id,
      graph_id: body.graph_id,
      config: body.config ?? {},
      context: body.context ?? {},
      metadata: { ...(body.metadata ?? {}) },
      if_exists: body.if_exists ?? "raise",
      name: body.name ?? undefined,
      description: body.description ?? undefined,
    };
    await allow(c, "assistants", "create", asked);
    const taken = await lookUpAssistant(p, tenant, id);
    if (taken) return c.json(await existing(taken, body.if_exists));
    const { body: made, secrets } = await assistantVersion(p, { tenant, id }, graph, {
      ...body,
      metadata: asked.metadata,
    });
    const now = new Date().toISOString();
    const created = await p.assistants.create(
      tenant,
      id,
      { version: 1, created_at: now, body: made, secrets },
      p.assistantCaps.maxCount,
    );
    if (created === "full")
      throw new ApiError(
        403,
        "too-many-assistants",
        `this tenant has ${p.assistantCaps.maxCount} saved assistants already, the most it may`,
        {
          hint: `delete some (\`assistants.delete\`), or start the server with a larger --max-assistants-per-tenant (startServer({ maxAssistantsPerTenant }), now ${p.assistantCaps.maxCount})`,
        },
      );
    // Made meanwhile by another request with the same id.
    const saved = await lookUpAssistant(p, tenant, id);
    if (created === "exists") return c.json(await existing(saved!, body.if_exists));
    return c.json(savedAssistantView(saved!.saved!));
  });

  api.patch("/assistants/:id", async (c) => {
    const body = parsed(AssistantPatch, await jsonBody(c, p.maxBodyBytes));
    const tenant = tenantOf(c);
    const asked = {
      assistant_id: c.req.param("id")!,
      graph_id: body.graph_id ?? undefined,
      config: body.config ?? undefined,
      metadata: body.metadata ? { ...body.metadata } : undefined,
      name: body.name ?? undefined,
      description: body.description ?? undefined,
    };
    const latest = await savedOf(c, await allow(c, "assistants", "update", asked));
    const id = latest.assistant_id;
    const graph = await graphNamed(body.graph_id ?? latest.body.graph_id);
    const secrets = openSecrets(p, { tenant, id }, latest.secrets);
    // Checked before the store is asked: a bad update changes nothing.
    const given = { ...body, metadata: asked.metadata };
    const next = await assistantVersion(p, { tenant, id }, graph, given, {
      body: latest.body,
      secrets,
    });
    const now = new Date().toISOString();
    const updated = await p.assistants.addVersion(
      tenant,
      id,
      () => ({ created_at: now, ...next }),
      p.assistantCaps.keepVersions,
    );
    if (!updated) throw assistantNotFound(id);
    return c.json(savedAssistantView(updated));
  });

  api.delete("/assistants/:id", async (c) => {
    const filters = await allow(c, "assistants", "delete", { assistant_id: c.req.param("id")! });
    const saved = await savedOf(c, filters);
    await p.assistants.delete(tenantOf(c), saved.assistant_id);
    return c.json([saved.assistant_id]);
  });

  api.post("/assistants/:id/latest", async (c) => {
    const { version } = parsed(AssistantLatest, await jsonBody(c, p.maxBodyBytes));
    const asked = { assistant_id: c.req.param("id")!, version };
    const saved = await savedOf(c, await allow(c, "assistants", "update", asked));
    const latest = await p.assistants.setLatest(tenantOf(c), saved.assistant_id, version);
    if (!latest)
      throw new ApiError(
        404,
        "assistant-version-not-found",
        `assistant \`${saved.assistant_id}\` has no version ${version}`,
        {
          field: "version",
          hint: `list its versions with \`assistants.getVersions\`; the ${p.assistantCaps.keepVersions} newest are kept`,
        },
      );
    return c.json(savedAssistantView(latest));
  });
  return api;
}
