/**
 * The HTTP API: the part of the LangGraph Platform API that `@langchain/langgraph-sdk`'s `Client`
 * uses, on Hono, over the public Executor. Every failure is a JSON body with a 4xx (api-error.ts)
 * or a 500 that names no internals; the server stays up.
 *
 * Not `@langchain/langgraph-api`'s `experimental/embed` app: it has no assistants, `runs/wait`,
 * background runs or auth, does not follow semver, and would run the graphs itself — around the
 * executor's thread claims, limits and secret masking.
 */
import { Hono } from "hono";
import { withTurns } from "../compile/cpu-turns.js";
import { ApiError } from "./api-error.js";
import { assistantRoutes } from "./assistant-routes.js";
import type { Caller } from "./auth.js";
import { clientText } from "./client-text.js";
import { originGuard } from "./request-origin.js";
import { runRoutes } from "./run-routes.js";
import type { ServerEnv, ServerParts } from "./server-parts.js";
import { tenancy } from "./tenancy.js";
import { tenantKey } from "./tenant-caps.js";
import { type Allow, threadRoutes } from "./thread-routes.js";
import { unservedRoutes } from "./unserved-routes.js";
import type { WebPage } from "./web-page.js";

/** Paths anyone may call: liveness and readiness, and what this server is. */
const PUBLIC = new Set(["/ok", "/health", "/info"]);

export function serverApp(
  p: ServerParts,
  version: string,
  /** graphspec dev's page, and its stream of events (page-event-route.ts), behind the API's auth. */
  page?: WebPage & { events?: Hono<ServerEnv> },
): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  app.onError((e, c) => {
    if (e instanceof ApiError) {
      // The client's own thread ids and project-relative paths, never the server's (client-text.ts).
      const view = { root: p.graphs.root, threads: c.get("tenancy")?.named ?? new Map() };
      const body = e.body();
      for (const k of ["message", "hint", "detail"] as const)
        if (typeof body[k] === "string") body[k] = clientText(body[k] as string, view);
      if (e.retryAfter !== undefined) c.header("retry-after", String(e.retryAfter));
      return c.json(body, e.status);
    }
    // A bug of ours: logged here, not shown to the client.
    console.error(`graphspec server: ${c.req.method} ${c.req.path}:`, e);
    return c.json(
      {
        error: "internal-error",
        message: "the server failed to answer this request",
        detail: "internal error",
      },
      500,
    );
  });
  app.notFound((c) =>
    c.json(
      {
        error: "not-found",
        message: `no endpoint ${c.req.method} ${c.req.path}`,
        hint: "see docs/server.md for the API",
        detail: "not found",
      },
      404,
    ),
  );
  // Before anything is answered, the page and /ok included: a rebound name reads nothing.
  app.use("*", originGuard(p.origins));
  app.get("/ok", (c) => c.json({ ok: true }));
  app.get("/health", (c) => c.json({ ok: true }));
  // As LangGraph's JS server answers it (Studio reads it first): assistants yes, crons and
  // LangSmith tracing no.
  app.get("/info", (c) =>
    c.json({
      version,
      graphspec: true,
      context: "js",
      flags: { assistants: true, crons: false, langsmith: false },
    }),
  );

  // graphspec dev's page (web-page.ts): static files, public like the paths above.
  if (page) app.route("/", page.routes);
  app.use("*", async (c, next) => {
    if (PUBLIC.has(c.req.path) || page?.paths.has(c.req.path)) return next();
    let caller: Caller | undefined;
    if (p.auth) caller = await p.auth.authenticate(c.req.raw);
    c.set("caller", caller);
    c.set("tenancy", tenancy(caller?.tenant));
    // The request's own CPU-heavy parts (parsing its body) take its tenant's turns too.
    return withTurns(p.runs.turns, tenantKey(caller?.tenant), next);
  });
  const allow: Allow = async (c, resource, action, value) => {
    const caller = c.get("caller");
    return p.auth && caller ? p.auth.authorize(caller, resource, action, value) : undefined;
  };
  if (page?.events) app.route("/", page.events);
  app.route("/", assistantRoutes(p, allow));
  app.route("/", threadRoutes(p, allow));
  app.route("/", runRoutes(p, allow));
  // What LangGraph's server or the SDK has and this one does not: a 501 naming it, not a bare 404.
  app.route("/", unservedRoutes());
  return app;
}
