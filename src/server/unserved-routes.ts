/**
 * The routes of LangGraph's server (`@langchain/langgraph-api`) and of the SDK's `Client` that
 * this server does not serve, each answered with a 501 (a 404 where LangGraph's own dev server
 * has no such route either) naming the route and why — not the generic 404 of a path nobody
 * knows, so a client (LangGraph Studio, an app) can tell "not here" from "mistyped".
 * docs/server.md lists them; test/server/unserved-routes.test.ts holds the two together.
 */
import { Hono } from "hono";
import { ApiError } from "./api-error.js";
import type { ServerEnv } from "./server-parts.js";

export interface UnservedRoute {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** As Hono routes it (`:name` a path segment). */
  path: string;
  /** What it is, and why it is not served: the answer's message. */
  why: string;
  /** 404 where LangGraph's JS dev server has no such route either, else 501. */
  status?: 404;
}

const CRONS =
  'scheduled runs (crons) are not served: graphspec has no scheduler (LangGraph\'s JS dev server answers them with a 500 "Not implemented"; /info says crons: false)';
const STORE =
  "LangGraph's long-term store is not served over the API: graphspec serve and dev run their graphs without one (graphspec run --store and createExecutor({ store }) give a graph's tools one)";
const PROTOCOL =
  "the thread event protocol (SDK 1.15's stream transport) is not served: stream runs with runs.stream or runs.joinStream";

const UI =
  "generative UI components are not served: graphspec has no `ui` config (LangGraph's dev server has this route only when langgraph.json names some)";

export const UNSERVED_ROUTES: readonly UnservedRoute[] = [
  { method: "POST", path: "/runs/crons", why: CRONS },
  { method: "POST", path: "/runs/crons/search", why: CRONS },
  { method: "POST", path: "/runs/crons/count", why: CRONS },
  { method: "PATCH", path: "/runs/crons/:cron_id", why: CRONS },
  { method: "DELETE", path: "/runs/crons/:cron_id", why: CRONS },
  { method: "POST", path: "/threads/:thread_id/runs/crons", why: CRONS },
  { method: "POST", path: "/store/namespaces", why: STORE },
  { method: "POST", path: "/store/items/search", why: STORE },
  { method: "GET", path: "/store/items", why: STORE },
  { method: "PUT", path: "/store/items", why: STORE },
  { method: "DELETE", path: "/store/items", why: STORE },
  {
    method: "POST",
    path: "/runs/batch",
    why: "creating runs in a batch is not served: create each with runs.create",
  },
  {
    method: "POST",
    path: "/runs/cancel",
    why: "cancelling runs in bulk is not served: cancel each with runs.cancel(thread_id, run_id)",
  },
  {
    method: "GET",
    path: "/runs/:run_id/stream",
    why: "joining a stateless run (one without a thread) is not served: its events are not kept; start it on a thread to join it",
  },
  {
    method: "POST",
    path: "/threads/:thread_id/copy",
    why: "copying a thread is not served: fork it from a checkpoint instead (threads.updateState with checkpointId, or a run with checkpointId)",
  },
  {
    method: "GET",
    path: "/threads/:thread_id/stream",
    why: "streaming all of a thread's runs is not served: join one run with runs.joinStream",
  },
  { method: "POST", path: "/threads/:thread_id/commands", why: PROTOCOL },
  { method: "POST", path: "/threads/:thread_id/stream/events", why: PROTOCOL },
  { method: "GET", path: "/threads/:thread_id/stream/events", why: PROTOCOL },
  { method: "POST", path: "/ui/:agent", why: UI, status: 404 },
  { method: "GET", path: "/ui/:agent/:basename", why: UI, status: 404 },
];

export function unservedRoutes(): Hono<ServerEnv> {
  const api = new Hono<ServerEnv>();
  for (const r of UNSERVED_ROUTES)
    api.on(r.method, r.path, () => {
      const status = r.status ?? 501;
      throw new ApiError(
        status,
        status === 404 ? "not-found" : "not-implemented",
        `${r.method} ${r.path}: ${r.why}`,
        { hint: 'see docs/server.md, "What is not served"' },
      );
    });
  return api;
}
