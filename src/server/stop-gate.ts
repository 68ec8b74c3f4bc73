/**
 * A server's requests while it stops: once `stop()` is called, a new request is answered at once
 * with a 503 (`Connection: close`) and never reaches the app — nor the records, which close soon
 * after — while the ones already in the app finish; `settled()` waits for them (bounded). Without
 * it a request taken just before the stop went on to the records after they closed ("database
 * connection is not open"), and its run went unrecorded.
 */
import { serverStopping } from "./api-error.js";

type Fetch = (request: Request, ...rest: never[]) => Response | Promise<Response>;

export interface StopGate<F extends Fetch> {
  /** The app's `fetch`, counted, and refusing once stopping. */
  fetch: F;
  stop(): void;
  /** Resolves once no request is in the app, or after `ms` (a request that hangs is not waited for). */
  settled(ms: number): Promise<void>;
}

export function stopGate<F extends Fetch>(inner: F): StopGate<F> {
  let stopping = false;
  let inApp = 0;
  const waiters = new Set<() => void>();
  const fetch = (async (request: Request, ...rest: never[]) => {
    if (stopping)
      return Response.json(serverStopping().body(), {
        status: 503,
        headers: { connection: "close", "retry-after": "1" },
      });
    inApp++;
    try {
      return await inner(request, ...rest);
    } finally {
      if (--inApp === 0) for (const wake of waiters) wake();
    }
  }) as F;
  return {
    fetch,
    stop: () => {
      stopping = true;
    },
    settled: (ms) =>
      inApp === 0
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
