/** Threads: create (with `if_exists`), get, patch, search, delete, delete by prefix, state, update state, history. */
import { randomUUID } from "node:crypto";
import { type Context, Hono } from "hono";
import { ApiError, notFound, refusalError } from "./api-error.js";
import { type AuthFilters, matchesFilters } from "./auth-filters.js";
import { checkpointThreads } from "./checkpoint-threads.js";
import { paginationHeaders } from "./pagination-headers.js";
import {
  checkpointOf,
  HistoryQuery,
  jsonBody,
  parsed,
  StateAtCheckpoint,
  StateUpdate,
  ThreadCreate,
  ThreadPatch,
  ThreadPrune,
  ThreadSearch,
} from "./request-body.js";
import type { ServerEnv, ServerParts } from "./server-parts.js";
import type { ThreadRecord } from "./server-store.js";
import { emptyState, stateView, threadClientView, threadView } from "./thread-views.js";

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Threads read from the store at a time when a search filters on what only a view shows. */
const SEARCH_CHUNK = 100;

export function threadRoutes(p: ServerParts, allow: Allow): Hono<ServerEnv> {
  const api = new Hono<ServerEnv>();
  const fromCheckpoints = checkpointThreads(p);
  const ids = (c: {
    get(k: "tenancy"): ServerEnv["Variables"]["tenancy"];
    req: { param(k: string): string };
  }) => {
    const client = c.req.param("thread_id");
    return { client, stored: c.get("tenancy").stored(client) };
  };
  /** The thread, or 404 — also when the Auth handler's filters do not match its metadata. */
  const existing = async (stored: string, client: string, filters?: AuthFilters) => {
    const t = await threadView(p, stored, client);
    if (!t || !matchesFilters(t.metadata, filters))
      throw notFound("thread", client, "create it with `threads.create()`, or check the id");
    return t;
  };

  api.post("/threads", async (c) => {
    const body = parsed(ThreadCreate, await jsonBody(c, p.maxBodyBytes));
    // The handler may add metadata (LangGraph's docs stamp `owner`): it changes `body` in place.
    const filters = await allow(c, "threads", "create", body);
    const client = body.thread_id ?? randomUUID();
    const stored = c.get("tenancy").stored(client);
    const found = await threadView(p, stored, client);
    if (found) {
      if (body.if_exists === "do_nothing" && matchesFilters(found.metadata, filters))
        return c.json(found);
      throw new ApiError(409, "thread-exists", `thread \`${client}\` exists already`, {
        field: "thread_id",
        hint: 'pass if_exists: "do_nothing" to get it back, or choose another id',
      });
    }
    const metadata = Object.fromEntries(
      Object.entries(body.metadata ?? {}).filter(([, v]) => v !== undefined),
    );
    await p.store.ensureThread(stored, metadata);
    return c.json(await existing(stored, client));
  });

  /**
   * What a search or count asks of the store, and whether a thread it found matches what only a
   * thread's view shows (its status) or the Auth handler's filters: its view, or undefined.
   */
  const searching = async (c: Context<ServerEnv>) => {
    const q = parsed(ThreadSearch, await jsonBody(c, p.maxBodyBytes));
    const filters = await allow(c, "threads", "search", q);
    await fromCheckpoints.adopt();
    const tenancy = c.get("tenancy");
    const query = {
      prefix: tenancy.stored(""),
      ids: q.ids?.map((id) => tenancy.stored(id)),
      metadata: q.metadata,
    };
    const view = (id: string) => {
      const client = tenancy.client(id);
      return client === undefined ? undefined : threadView(p, id, client);
    };
    const matching = async (t: { id: string; record: ThreadRecord }) => {
      if (!matchesFilters(t.record.metadata, filters)) return undefined;
      // A thread unchanged since a search read another status is passed by unread.
      const known = q.status === "busy" ? undefined : p.statuses.get(t.id, t.record.updated_at);
      if (known !== undefined && q.status !== undefined && known !== q.status) return undefined;
      const v = await view(t.id);
      if (v) p.statuses.set(t.id, t.record.updated_at, v.status);
      if (!v || (q.status !== undefined && v.status !== q.status)) return undefined;
      const values = v.values as Record<string, unknown>;
      return Object.entries(q.values ?? {}).every(([k, want]) => same(values[k], want))
        ? v
        : undefined;
    };
    const byRecordsOnly = q.status === undefined && filters === undefined && !q.values;
    return { q, query, view, matching, byRecordsOnly };
  };

  // Paged in the store (newest update first): only the threads of the page are read from the
  // checkpointer. Status and the Auth handler's filters need a thread's view: then the store is
  // read a page at a time until enough threads match. Threads only the checkpointer knows are
  // adopted into the store first (checkpoint-threads.ts).
  api.post("/threads/search", async (c) => {
    const { q, query, view, matching, byRecordsOnly } = await searching(c);
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 10;
    const answer = (found: unknown[]) => {
      paginationHeaders(c, offset, found.length, limit);
      return c.json(found);
    };
    if (byRecordsOnly) {
      const page = await p.store.searchThreads(query, { limit, offset });
      const views = await Promise.all(page.map((t) => view(t.id)));
      return answer(views.filter((v) => v !== undefined));
    }
    const found: NonNullable<Awaited<ReturnType<typeof threadView>>>[] = [];
    let skipped = 0;
    for (let at = 0; ; at += SEARCH_CHUNK) {
      const page = await p.store.searchThreads(query, { limit: SEARCH_CHUNK, offset: at });
      for (const t of page) {
        const v = await matching(t);
        if (!v) continue;
        if (skipped < offset) skipped++;
        else if (found.push(v) === limit) return answer(found);
      }
      if (page.length < SEARCH_CHUNK) return answer(found);
    }
  });

  // The threads a search with the same filters finds (LangGraph's `threads.count`): records only,
  // unless it filters by status or the Auth handler returns filters.
  api.post("/threads/count", async (c) => {
    const { query, matching, byRecordsOnly } = await searching(c);
    let n = 0;
    for (let at = 0; ; at += SEARCH_CHUNK) {
      const page = await p.store.searchThreads(query, { limit: SEARCH_CHUNK, offset: at });
      for (const t of page) if (byRecordsOnly || (await matching(t))) n++;
      if (page.length < SEARCH_CHUNK) return c.json(n);
    }
  });

  // Deleting by prefix (a data deletion request): only the caller's threads, never everyone's.
  api.post("/threads/prune", async (c) => {
    const { prefix } = parsed(ThreadPrune, await jsonBody(c, p.maxBodyBytes));
    const filters = await allow(c, "threads", "delete", { prefix });
    const tenancy = c.get("tenancy");
    const storedPrefix = tenancy.stored(prefix);
    const candidates = new Set([
      ...(await p.store.threadIds(storedPrefix)),
      ...(await p.exec.threads())
        .map((t) => t.threadId)
        .filter((id) => id.startsWith(storedPrefix)),
    ]);
    // The Auth handler's filters narrow it further: only threads whose metadata match.
    const doomed: string[] = [];
    for (const id of candidates)
      if (matchesFilters((await p.store.getThread(id))?.metadata ?? {}, filters)) doomed.push(id);
    let busy: string | undefined;
    for (const id of doomed) if (!busy && (await p.runs.active(id))) busy = id;
    if (busy)
      throw new ApiError(
        409,
        "thread-busy",
        `thread \`${tenancy.client(busy)}\` has a run in progress`,
        { hint: "cancel it first" },
      );
    const gone = new Set<string>();
    if (filters) {
      for (const id of doomed) if (await p.exec.deleteThread(id)) gone.add(id);
    } else for (const id of await p.exec.deleteThreads(storedPrefix)) gone.add(id);
    for (const id of doomed) {
      if (await p.store.deleteThread(id)) gone.add(id);
      await p.runs.forgetThread(id);
    }
    return c.json({
      deleted: [...gone].map((id) => tenancy.client(id)).filter((id) => id !== undefined),
    });
  });

  api.get("/threads/:thread_id", async (c) => {
    const { client, stored } = ids(c);
    const filters = await allow(c, "threads", "read", { thread_id: client });
    return c.json(await existing(stored, client, filters));
  });

  api.patch("/threads/:thread_id", async (c) => {
    const { client, stored } = ids(c);
    const body = parsed(ThreadPatch, await jsonBody(c, p.maxBodyBytes));
    const asked = { thread_id: client, ...body };
    const filters = await allow(c, "threads", "update", asked);
    await existing(stored, client, filters);
    await p.store.patchThread(stored, asked.metadata ?? {});
    return c.json(await existing(stored, client));
  });

  api.delete("/threads/:thread_id", async (c) => {
    const { client, stored } = ids(c);
    const filters = await allow(c, "threads", "delete", { thread_id: client });
    await existing(stored, client, filters);
    if (await p.runs.active(stored))
      throw new ApiError(409, "thread-busy", `thread \`${client}\` has a run in progress`, {
        hint: "cancel the run first, then delete the thread",
      });
    await p.exec.deleteThread(stored);
    await p.store.deleteThread(stored);
    await p.runs.forgetThread(stored);
    return c.body(null, 204);
  });

  api.get("/threads/:thread_id/state", async (c) => {
    const { client, stored } = ids(c);
    const filters = await allow(c, "threads", "read", { thread_id: client });
    await existing(stored, client, filters);
    const s = await p.exec.state(stored);
    return c.json(
      s ? stateView(client, s, threadClientView(p, stored, client)) : emptyState(client),
    );
  });

  api.get("/threads/:thread_id/state/:checkpoint_id", async (c) => {
    const { client, stored } = ids(c);
    const filters = await allow(c, "threads", "read", { thread_id: client });
    await existing(stored, client, filters);
    const asked = c.req.param("checkpoint_id");
    const entry = await p.exec.state(stored, undefined, { checkpointId: asked });
    if (!entry) throw notFound("checkpoint", asked);
    return c.json(stateView(client, entry, threadClientView(p, stored, client)));
  });

  // The SDK's getState(thread, { checkpoint_id }) with a checkpoint object: a checkpoint of the
  // root graph (graphspec keeps no subgraph checkpoints of their own), or the latest without one.
  api.post("/threads/:thread_id/state/checkpoint", async (c) => {
    const { client, stored } = ids(c);
    const body = parsed(StateAtCheckpoint, await jsonBody(c, p.maxBodyBytes));
    const filters = await allow(c, "threads", "read", { thread_id: client });
    await existing(stored, client, filters);
    const asked = body.checkpoint?.checkpoint_id ?? undefined;
    const entry = await p.exec.state(stored, undefined, asked ? { checkpointId: asked } : {});
    if (!entry) {
      if (asked) throw notFound("checkpoint", asked);
      return c.json(emptyState(client));
    }
    return c.json(stateView(client, entry, threadClientView(p, stored, client)));
  });

  api.post("/threads/:thread_id/state", async (c) => {
    const { client, stored } = ids(c);
    const body = parsed(StateUpdate, await jsonBody(c, p.maxBodyBytes));
    const filters = await allow(c, "threads", "update", { thread_id: client, ...body });
    await existing(stored, client, filters);
    if (await p.runs.active(stored))
      throw new ApiError(409, "thread-busy", `thread \`${client}\` has a run in progress`, {
        hint: "wait for it to finish",
      });
    const from = checkpointOf(body);
    const out = await p.exec.updateState(stored, body.values ?? {}, {
      ...(body.as_node ? { asNode: body.as_node } : {}),
      // A fork: written on top of that checkpoint (of this thread only), not the latest.
      ...(from !== undefined ? { checkpointId: from } : {}),
    });
    if ("status" in out) {
      // A thread created but never run has no graph yet: nothing to update.
      if (out.error?.code === "nothing-to-resume")
        throw new ApiError(409, "thread-not-started", `thread \`${client}\` has no state yet`, {
          hint: "run a graph on it first",
        });
      if (out.error?.code === "checkpoint-not-found") throw checkpointNotFound(from ?? "");
      throw refusalError(out.error!);
    }
    await p.store.touchThread(stored);
    const position = { thread_id: client, checkpoint_ns: "", checkpoint_id: out.checkpointId };
    return c.json({ configurable: position, checkpoint: position });
  });

  // POST with a body (the SDK's getHistory); GET with `limit` and `before` in the query, as
  // LangGraph's server also takes it.
  const history = async (c: Context<ServerEnv>, q: HistoryQuery) => {
    const { client, stored } = ids(c);
    const filters = await allow(c, "threads", "read", { thread_id: client });
    await existing(stored, client, filters);
    const before =
      typeof q.before === "string"
        ? q.before
        : (q.before?.checkpoint_id ?? q.before?.configurable?.checkpoint_id);
    // Older than `before`: a checkpoint the thread does not have pages nothing (not everything).
    const entries =
      (await p.exec.history(stored, undefined, {
        limit: q.limit ?? 10,
        ...(before ? { before } : {}),
        ...(q.metadata ? { filter: q.metadata } : {}),
      })) ?? [];
    const latest = await p.exec.state(stored);
    const view = threadClientView(p, stored, client);
    return c.json(
      entries.map((h) =>
        stateView(client, latest && h.checkpointId === latest.checkpointId ? latest : h, view),
      ),
    );
  };
  api.post("/threads/:thread_id/history", async (c) =>
    history(c, parsed(HistoryQuery, await jsonBody(c, p.maxBodyBytes))),
  );
  api.get("/threads/:thread_id/history", async (c) => {
    const limit = c.req.query("limit");
    const before = c.req.query("before");
    return history(
      c,
      parsed(HistoryQuery, {
        ...(limit !== undefined ? { limit: Number(limit) } : {}),
        ...(before ? { before } : {}),
      }),
    );
  });
  return api;
}

/** A checkpoint the thread does not have (the message names the client's ids, never stored ones). */
export const checkpointNotFound = (checkpointId: string): ApiError =>
  notFound(
    "checkpoint",
    checkpointId,
    "take a checkpoint id from this thread's history (`threads.getHistory`)",
  );

/**
 * Asks the Auth handler's `on` callbacks (when there are) whether the caller may do this, and
 * answers the metadata filters they returned (matchesFilters), to apply to the thread concerned.
 */
export type Allow = (
  c: { get(k: "caller"): ServerEnv["Variables"]["caller"] },
  resource: string,
  action: string,
  value: unknown,
) => Promise<AuthFilters | undefined>;
