/**
 * What an assistant id names, for a tenant: a graph's own assistant (by the graph's name or id,
 * the same for every tenant) or one of the tenant's saved assistants, with its graph. Another
 * tenant's saved assistant is not found: ids are looked up in the caller's tenant only.
 */
import type { Context } from "hono";
import { ApiError } from "./api-error.js";
import type { StoredAssistant } from "./assistant-store.js";
import { type AuthFilters, matchesFilters } from "./auth-filters.js";
import type { GraphEntry } from "./graph-catalog.js";
import type { ServerEnv, ServerParts } from "./server-parts.js";
import { tenantKey } from "./tenant-caps.js";

export interface FoundAssistant {
  /** The graph it runs (undefined: a saved assistant whose graph is no longer served). */
  graph: GraphEntry | undefined;
  /** Undefined: the graph's own assistant. */
  saved: StoredAssistant | undefined;
}

/** The caller's tenant, as the records key it. */
export const tenantOf = (c: Context<ServerEnv>): string => tenantKey(c.get("tenancy").tenant);

/**
 * `filters`: an Auth handler's for the action (auth-filters.ts), matched against a saved
 * assistant's metadata — one that does not match is not found, as another tenant's.
 */
export async function lookUpAssistant(
  p: ServerParts,
  tenant: string,
  id: string,
  filters?: AuthFilters,
): Promise<FoundAssistant | undefined> {
  const graph = await p.graphs.find(id);
  if (graph) return { graph, saved: undefined };
  const saved = await p.assistants.get(tenant, id);
  if (!saved || !matchesFilters(saved.body.metadata, filters)) return undefined;
  return { graph: await p.graphs.find(saved.body.graph_id), saved };
}

export const assistantNotFound = (id: string): ApiError =>
  new ApiError(404, "assistant-not-found", `there is no assistant \`${id}\``, {
    field: "assistant_id",
    hint: "an assistant is a graph's name or id, or a saved assistant's id; list them with `assistants.search()`",
  });

/** The assistant and its graph, or the 404 (none) or 409 (its graph is no longer served). */
export async function assistantWithGraph(
  p: ServerParts,
  tenant: string,
  id: string,
  filters?: AuthFilters,
): Promise<{ graph: GraphEntry; saved: StoredAssistant | undefined }> {
  const found = await lookUpAssistant(p, tenant, id, filters);
  if (!found) throw assistantNotFound(id);
  if (!found.graph)
    throw new ApiError(
      409,
      "assistant-graph-gone",
      `assistant \`${id}\` runs graph \`${found.saved!.body.graph_id}\`, which this server no longer serves`,
      {
        hint: "point it at a served graph (`assistants.update(id, { graphId })`), or delete it",
      },
    );
  return { graph: found.graph, saved: found.saved };
}
