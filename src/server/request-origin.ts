/**
 * Who may send a request, by its `Host` and `Origin` headers — the browser's view of the server.
 * A page of another origin can send a "simple" POST (`text/plain`, no preflight) to a server on
 * 127.0.0.1, and a page of the attacker's own name can be rebound by DNS to 127.0.0.1 (its
 * requests then carry `Host: attacker.example`): `graphspec dev` has no keys to stop either.
 *
 * - **Host**: on a server bound to a named address (127.0.0.1 by default), only loopback names,
 *   IP literals (a rebound name is never one), the bound name and `allowHosts` are answered. On a
 *   wildcard address (0.0.0.0, `::`) any name is, unless `allowHosts` is given.
 * - **Origin**: a request that carries one (browsers send it with every cross-origin request and
 *   with same-origin POSTs) is answered only when it is the server's own — its host is the
 *   request's `Host`, which the check above vouched for — or one of `allowOrigins` (graphspec dev
 *   adds LangGraph Studio's), which also get CORS answers. Any other is a 403 before a route runs,
 *   preflights included, so neither a preflighted request nor a simple one (a POST with no body,
 *   which needs no preflight) reaches a route. Clients outside a browser (the SDK from Node, curl)
 *   send no Origin and are unaffected.
 * Bodies that are not JSON are refused by request-body.ts.
 */

import { isIP } from "node:net";
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { ApiError } from "./api-error.js";

export interface OriginPolicy {
  /** The address the server listens on. */
  host: string;
  /** Names answered besides loopback names and IP literals (`--allow-host`). */
  allowHosts?: readonly string[] | undefined;
  /** Origins whose pages may call the API besides the server's own (`--allow-origin`). */
  allowOrigins?: readonly string[] | undefined;
}

const WILDCARDS = new Set(["0.0.0.0", "::", "[::]", ""]);

/** The host name of a `Host` header (no port, no brackets), lower-cased. */
function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(1, h.indexOf("]") === -1 ? undefined : h.indexOf("]"));
  const colon = h.lastIndexOf(":");
  return colon === -1 ? h : h.slice(0, colon);
}

/** An origin as browsers send it (`scheme://host[:port]`), or undefined for one that is not. */
function normalOrigin(origin: string): string | undefined {
  try {
    const u = new URL(origin);
    return u.origin === "null" ? undefined : u.origin;
  } catch {
    return undefined;
  }
}

/** The `--allow-origin` values, checked: throws a message naming the bad one. */
export function allowedOrigins(values: readonly string[]): string[] {
  return values.map((v) => {
    const o = normalOrigin(v);
    if (!o || !/^https?:$/.test(new URL(v).protocol))
      throw new Error(
        `"${v}" is not an origin: give scheme, host and port, as http://localhost:5173`,
      );
    return o;
  });
}

/**
 * Response headers the SDK reads, so a page of an allowed origin may read them too:
 * `Content-Location` (a run's id, `onRunCreated`), `Location` (where a stream resumes),
 * `X-Pagination-Next` / `-Total` (`assistants.search({ includePagination })`).
 */
const EXPOSED = ["content-location", "location", "x-pagination-next", "x-pagination-total"];

export function originGuard(p: OriginPolicy): MiddlewareHandler {
  const named = !WILDCARDS.has(p.host.trim());
  const checkHost = named || (p.allowHosts?.length ?? 0) > 0;
  const hosts = new Set(["localhost", ...(p.allowHosts ?? []).map((h) => hostName(h))]);
  if (named) hosts.add(hostName(p.host.includes(":") ? `[${p.host}]` : p.host));
  const hostAllowed = (name: string) =>
    hosts.has(name) || name.endsWith(".localhost") || isIP(name) !== 0;
  const extra = new Set(p.allowOrigins ?? []);
  // Hono's CORS middleware, run only for an origin the guard let through (so it may echo it):
  // preflights, credentials (a page that sends cookies or auth), the headers the SDK reads, and
  // `Vary: Origin`. The request headers a preflight names are allowed as asked (Hono's default,
  // as on LangGraph's own server): Studio sends headers of its own, and the origin is trusted.
  const answers = cors({
    // Echoed as browsers serialize it (the guard compared it so), never the header's raw text.
    origin: (origin) => normalOrigin(origin) ?? null,
    credentials: true,
    exposeHeaders: EXPOSED,
    maxAge: 600,
  });

  return async (c, next) => {
    const host = c.req.header("host") ?? "";
    // Every answer depends on the Origin: a cache must not hand one origin's answer to another.
    if (checkHost && !hostAllowed(hostName(host))) {
      c.header("vary", "Origin");
      throw new ApiError(
        403,
        "host-not-allowed",
        `this server does not answer to the host \`${host}\``,
        {
          hint: "reach it by a loopback name (localhost, 127.0.0.1) or the --host it listens on; name others with --allow-host",
        },
      );
    }
    const origin = c.req.header("origin");
    if (origin === undefined) {
      await next();
      c.header("vary", "Origin", { append: true });
      return;
    }
    const o = normalOrigin(origin);
    const own = o !== undefined && new URL(o).host === host.trim().toLowerCase();
    if (!own && !(o !== undefined && extra.has(o))) {
      // Preflights included: no CORS headers, so the browser sends nothing after them.
      c.header("vary", "Origin");
      throw new ApiError(
        403,
        "origin-not-allowed",
        `requests from the origin \`${origin}\` are refused`,
        {
          hint: "a page of another origin may call this server only if it is started with --allow-origin <origin>",
        },
      );
    }
    // Chrome's Private Network Access: a public page (Studio on https://smith.langchain.com)
    // asks before it calls a server on this machine; the preflight's answer carries the yes.
    if (
      c.req.method === "OPTIONS" &&
      c.req.header("access-control-request-private-network") === "true"
    )
      c.res.headers.set("access-control-allow-private-network", "true");
    return answers(c, next);
  };
}
