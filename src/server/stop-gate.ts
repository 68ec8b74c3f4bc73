/**
 * A server's requests while it stops: once `stop()` is called, a new request is answered at once
 * with a 503 (`Connection: close`) and never reaches the app — nor the records, which close soon
 * after — while the answers already under way finish; `settled()` waits for them (bounded).
 * Without it a request taken just before the stop went on to the records after they closed
 * ("database connection is not open") and its run went unrecorded, and a streamed run's last
 * events were cut off when the connections were closed.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Http2SecureServer, Http2Server } from "node:http2";
import { serverStopping } from "./api-error.js";

type Fetch = (request: Request, ...rest: never[]) => Response | Promise<Response>;

export interface StopGate<F extends Fetch> {
  /** The app's `fetch`, refusing once stopping. */
  fetch: F;
  /** Counts `server`'s answers under way, from the request until the response is written (or cut). */
  watch(server: Server | Http2Server | Http2SecureServer): void;
  stop(): void;
  /** Resolves once no answer is under way, or after `ms` (one that hangs is not waited for). */
  settled(ms: number): Promise<void>;
}

export function stopGate<F extends Fetch>(inner: F): StopGate<F> {
  let stopping = false;
  let underWay = 0;
  const waiters = new Set<() => void>();
  const fetch = ((request: Request, ...rest: never[]) =>
    stopping
      ? Response.json(serverStopping().body(), {
          status: 503,
          headers: { connection: "close", "retry-after": "1" },
        })
      : inner(request, ...rest)) as F;
  return {
    fetch,
    watch(server) {
      (server as Server).on("request", (_req: IncomingMessage, res: ServerResponse) => {
        underWay++;
        res.once("close", () => {
          if (--underWay === 0) for (const wake of waiters) wake();
        });
      });
    },
    stop: () => {
      stopping = true;
    },
    settled: (ms) =>
      underWay === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const done = () => {
              clearTimeout(timer);
              waiters.delete(done);
              resolve();
            };
            const timer = setTimeout(done, ms);
            waiters.add(done);
          }),
  };
}
