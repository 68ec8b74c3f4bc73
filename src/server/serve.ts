/**
 * Serving the API on a port: the Hono app on Node's HTTP server (@hono/node-server), and a
 * graceful stop that lets runs in flight finish (or, past a grace period, cancels them so they
 * stop at a checkpoint and can be resumed).
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Executor } from "../run/executor-api.js";
import { serverApp } from "./app.js";
import type { Authenticator } from "./auth.js";
import type { GraphCatalog } from "./graph-catalog.js";
import { RunRegistry } from "./run-registry.js";
import { ThreadRecords } from "./thread-records.js";

export interface ServeOptions {
  exec: Executor;
  graphs: GraphCatalog;
  auth: Authenticator | undefined;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Default 4 MiB: above the executor's 1 MiB input limit, so that one answers with its own error. */
  maxBodyBytes?: number;
  version?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  /** Stops taking requests, waits up to `graceMs` for runs in flight, cancels the rest, closes the executor. */
  close(graceMs?: number): Promise<void>;
}

export async function startServer(o: ServeOptions): Promise<RunningServer> {
  const runs = new RunRegistry();
  const app = serverApp(
    {
      exec: o.exec,
      graphs: o.graphs,
      runs,
      threads: new ThreadRecords(),
      auth: o.auth,
      maxBodyBytes: o.maxBodyBytes ?? 4 * 1024 * 1024,
    },
    o.version ?? "0",
  );
  const host = o.host ?? "127.0.0.1";
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: o.port ?? 0 }, () => resolve(s));
    s.once("error", reject);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    async close(graceMs = 10_000) {
      const closed = new Promise<void>((r) => server.close(() => r()));
      const inFlight = runs.unfinished();
      const timer = setTimeout(() => {
        for (const r of inFlight) r.abort.abort();
      }, graceMs);
      await Promise.all(inFlight.map((r) => r.done));
      clearTimeout(timer);
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closed;
      await o.exec.close();
    },
  };
}
