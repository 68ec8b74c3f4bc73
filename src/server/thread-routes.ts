/** Threads: create (with `if_exists`), get, patch, search, delete, delete by prefix, state, update state, history. */
import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { ApiError, notFound, refusalError } from "./api-error.js";
import {
  HistoryQuery,
  jsonBody,
  parsed,
  StateUpdate,
  ThreadCreate,
  ThreadPatch,
  ThreadPrune,
  ThreadSearch,
} from "./request-body.js";
import type { ServerEnv, ServerParts } from "./server-parts.js";
import { emptyState, stateView, threadView } from "./thread-views.js";

export function threadRoutes(p: ServerParts, allow: Allow): Hono<ServerEnv> {
  const api = new Hono<ServerEnv>();
  const ids = (c: {
    get(k: "tenancy"): ServerEnv["Variables"]["tenancy"];
    req: { param(k: string): string };
  }) => {
    const client = c.req.param("thread_id");
    return { client, stored: c.get("tenancy").stored(client) };
  };
  const existing = async (stored: string, client: string) => {
    const t = await threadView(p, stored, client);
    if (!t) throw notFound("thread", client, "create it with `threads.create()`, or check the id");
    return t;
  };

  api.post("/threads", async (c) => {
    const body = parsed(ThreadCreate, await jsonBody(c, p.maxBodyBytes));
    await allow(c, "threads", "create", body);
    const client = body.thread_id ?? randomUUID();
    const stored = c.get("tenancy").stored(client);
    const found = await threadView(p, stored, client);
    if (found) {
      if (body.if_exists === "do_nothing") return c.json(found);
      throw new ApiError(409, "thread-exists", `thread \`${client}\` exists already`, {
        field: "thread_id",
        hint: 'pass if_exists: "do_nothing" to get it back, or choose another id',
      });
    }
    const metadata = Object.fromEntries(
      Object.entries(body.metadata ?? {}).filter(([, v]) => v !== undefined),
    );
    p.threads.ensure(stored, metadata);
    return c.json(await existing(stored, client));
  });

  api.post("/threads/search", async (c) => {
    const q = parsed(ThreadSearch, await jsonBody(c, p.maxBodyBytes));
    await allow(c, "threads", "search", q);
    const tenancy = c.get("tenancy");
    const stored = new Set([
      ...p.threads.ids(),
      ...(await p.exec.threads()).map((t) => t.threadId),
    ]);
    const mine = [...stored]
      .map((s) => ({ stored: s, client: tenancy.client(s) }))
      .filter((t): t is { stored: string; client: string } => t.client !== undefined)
      .filter((t) => !q.ids || q.ids.includes(t.client));
    const views = (await Promise.all(mine.map((t) => threadView(p, t.stored, t.client)))).filter(
      (t) => t !== undefined,
    );
    const matching = views
      .filter((t) => !q.status || t.status === q.status)
      .filter((t) =>
        Object.entries(q.metadata ?? {}).every(
          ([k, v]) =>
            JSON.stringify((t.metadata as Record<string, unknown>)[k]) === JSON.stringify(v),
        ),
      )
      .sort((a, b) => (a.updated_at < b.updated_at ? 1 : -1));
    const offset = q.offset ?? 0;
    return c.json(matching.slice(offset, offset + (q.limit ?? 10)));
  });

  // Deleting by prefix (a data deletion request): only the caller's threads, never everyone's.
  api.post("/threads/prune", async (c) => {
    const { prefix } = parsed(ThreadPrune, await jsonBody(c, p.maxBodyBytes));
    await allow(c, "threads", "delete", { prefix });
    const tenancy = c.get("tenancy");
    const storedPrefix = tenancy.stored(prefix);
    const busy = p.threads.ids(storedPrefix).find((id) => p.runs.running(id));
    if (busy)
      throw new ApiError(
        409,
        "thread-busy",
        `thread \`${tenancy.client(busy)}\` has a run in progress`,
        { hint: "cancel it first" },
      );
    const gone = new Set(await p.exec.deleteThreads(storedPrefix));
    for (const id of p.threads.ids(storedPrefix)) {
      p.threads.delete(id);
      gone.add(id);
    }
    for (const id of gone) p.runs.forgetThread(id);
    return c.json({
      deleted: [...gone].map((id) => tenancy.client(id)).filter((id) => id !== undefined),
    });
  });

  api.get("/threads/:thread_id", async (c) => {
    const { client, stored } = ids(c);
    await allow(c, "threads", "read", { thread_id: client });
    return c.json(await existing(stored, client));
  });

  api.patch("/threads/:thread_id", async (c) => {
    const { client, stored } = ids(c);
    const body = parsed(ThreadPatch, await jsonBody(c, p.maxBodyBytes));
    await allow(c, "threads", "update", { thread_id: client, ...body });
    await existing(stored, client);
    p.threads.patch(stored, body.metadata ?? {});
    return c.json(await existing(stored, client));
  });

  api.delete("/threads/:thread_id", async (c) => {
    const { client, stored } = ids(c);
    await allow(c, "threads", "delete", { thread_id: client });
    await existing(stored, client);
    if (p.runs.running(stored))
      throw new ApiError(409, "thread-busy", `thread \`${client}\` has a run in progress`, {
        hint: "cancel the run first, then delete the thread",
      });
    await p.exec.deleteThread(stored);
    p.threads.delete(stored);
    p.runs.forgetThread(stored);
    return c.body(null, 204);
  });

  api.get("/threads/:thread_id/state", async (c) => {
    const { client, stored } = ids(c);
    await allow(c, "threads", "read", { thread_id: client });
    const s = await p.exec.state(stored);
    if (s) return c.json(stateView(client, s));
    await existing(stored, client);
    return c.json(emptyState(client));
  });

  api.get("/threads/:thread_id/state/:checkpoint_id", async (c) => {
    const { client, stored } = ids(c);
    await allow(c, "threads", "read", { thread_id: client });
    const history = (await p.exec.history(stored)) ?? [];
    const entry = history.find((h) => h.checkpointId === c.req.param("checkpoint_id"));
    if (!entry) throw notFound("checkpoint", c.req.param("checkpoint_id"));
    return c.json(stateView(client, entry));
  });

  api.post("/threads/:thread_id/state", async (c) => {
    const { client, stored } = ids(c);
    const body = parsed(StateUpdate, await jsonBody(c, p.maxBodyBytes));
    await allow(c, "threads", "update", { thread_id: client, ...body });
    await existing(stored, client);
    if (p.runs.running(stored))
      throw new ApiError(409, "thread-busy", `thread \`${client}\` has a run in progress`, {
        hint: "wait for it to finish",
      });
    const out = await p.exec.updateState(
      stored,
      body.values ?? {},
      body.as_node ? { asNode: body.as_node } : {},
    );
    if ("status" in out) {
      // A thread created but never run has no graph yet: nothing to update.
      if (out.error?.code === "nothing-to-resume")
        throw new ApiError(409, "thread-not-started", `thread \`${client}\` has no state yet`, {
          hint: "run a graph on it first",
        });
      throw refusalError(out.error!);
    }
    p.threads.touch(stored);
    const position = { thread_id: client, checkpoint_ns: "", checkpoint_id: out.checkpointId };
    return c.json({ configurable: position, checkpoint: position });
  });

  api.post("/threads/:thread_id/history", async (c) => {
    const { client, stored } = ids(c);
    const q = parsed(HistoryQuery, await jsonBody(c, p.maxBodyBytes));
    await allow(c, "threads", "read", { thread_id: client });
    await existing(stored, client);
    let history = (await p.exec.history(stored)) ?? [];
    const before = typeof q.before === "string" ? q.before : q.before?.checkpoint_id;
    if (before) history = history.slice(history.findIndex((h) => h.checkpointId === before) + 1);
    const latest = await p.exec.state(stored);
    return c.json(
      history
        .slice(0, q.limit ?? 10)
        .map((h) =>
          stateView(client, latest && h.checkpointId === latest.checkpointId ? latest : h),
        ),
    );
  });
  return api;
}

/** Asks the Auth handler's `on` callbacks (when there are) whether the caller may do this. */
export type Allow = (
  c: { get(k: "caller"): ServerEnv["Variables"]["caller"] },
  resource: string,
  action: string,
  value: unknown,
) => Promise<void>;
