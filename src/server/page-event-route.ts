/**
 * `GET /ui/events`: graphspec dev's page's one stream of server-sent events (page-events.ts).
 * Mounted only with the page, and behind the API's authentication (a stream names thread ids).
 *
 * Bounded: open streams are capped in all and per client (its tenant and address), past which a
 * new one is a 429 with `retry-after` — a stranger opening thousands holds a few sockets, not the
 * server — and a request another site's page made (`Sec-Fetch-Site`) is refused. While nothing happens a stream carries a comment every HEARTBEAT_MS (a few bytes), so
 * proxies and the browser see it alive, and a dead peer is found by the failed write.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";
import { ApiError } from "./api-error.js";
import type { PageEvents } from "./page-events.js";
import type { ServerEnv } from "./server-parts.js";
import { tenantKey } from "./tenant-caps.js";

const PAGE_EVENTS_PATH = "/ui/events";

export interface PageStreamCaps {
  /** Open streams in all (default 64). */
  total: number;
  /** Open streams of one client: a tenant (or none) from one address (default 8). */
  perClient: number;
}

export const DEFAULT_PAGE_STREAM_CAPS: PageStreamCaps = { total: 64, perClient: 8 };

/** Well under the 60 s many proxies and load balancers close a quiet connection after. */
const HEARTBEAT_MS = 25_000;

/** The peer's address, from Node's socket under @hono/node-server (absent elsewhere: one client). */
function addressOf(c: Context<ServerEnv>): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? "";
}

const tooMany = (what: string) =>
  new ApiError(
    429,
    "too-many-event-streams",
    `too many open event streams ${what}`,
    { hint: "close other tabs of the page, or wait for their streams to end" },
    30,
  );

export function pageEventRoute(
  events: PageEvents,
  caps: PageStreamCaps = DEFAULT_PAGE_STREAM_CAPS,
  heartbeatMs = HEARTBEAT_MS,
): Hono<ServerEnv> {
  const open = new Map<string, number>();
  let total = 0;
  const route = new Hono<ServerEnv>();
  route.get(PAGE_EVENTS_PATH, (c) => {
    // Another site's page cannot open it with a tag (`<img src>` sends no Origin header) to use up
    // the slots of the person's own address: browsers say where a request comes from.
    const site = c.req.header("sec-fetch-site");
    if (site !== undefined && site !== "same-origin" && site !== "none")
      throw new ApiError(403, "cross-site-stream", "the page's stream is for the page itself", {
        hint: "open the page at this server's own address",
      });
    const tenancy = c.get("tenancy");
    const client = `${tenantKey(tenancy.tenant)}\u0000${addressOf(c)}`;
    if (total >= caps.total) throw tooMany("on this server");
    if ((open.get(client) ?? 0) >= caps.perClient) throw tooMany("from this client");
    total += 1;
    open.set(client, (open.get(client) ?? 0) + 1);
    const release = () => {
      total -= 1;
      const n = (open.get(client) ?? 1) - 1;
      if (n) open.set(client, n);
      else open.delete(client);
    };
    // The page's last event id: none missed, nothing to read again.
    const last = c.req.header("last-event-id");
    return streamSSE(c, async (stream: SSEStreamingApi) => {
      const ended = new Promise<void>((resolve) => {
        stream.onAbort(resolve);
        if (stream.aborted) resolve();
      });
      const write = (sent: Promise<unknown>) => sent.catch(() => stream.abort());
      const unsubscribe = events.subscribe({
        tenancy,
        send: (event, data, id) =>
          write(stream.writeSSE({ event, id, data: JSON.stringify(data) })),
        end: () => stream.abort(),
      });
      const heartbeat = setInterval(() => write(stream.write(": \n\n")), heartbeatMs);
      try {
        await stream.writeSSE({
          event: "hello",
          id: events.lastId,
          data: JSON.stringify({ resync: last !== events.lastId }),
        });
        await ended;
      } finally {
        clearInterval(heartbeat);
        unsubscribe();
        release();
      }
    });
  });
  return route;
}
