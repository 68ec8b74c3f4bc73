/**
 * Serving the API on a port: the Hono app on Node's HTTP server (@hono/node-server), and a
 * graceful stop that lets runs in flight finish (or, past a grace period, cancels them so they
 * stop at a checkpoint and can be resumed).
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { Executor, StandInCatalog } from "../run/executor-api.js";
import { serverApp } from "./app.js";
import { DEFAULT_ASSISTANT_CAPS, memoryAssistants } from "./assistant-store.js";
import type { Authenticator } from "./auth.js";
import { DEFAULT_EVENT_RETENTION } from "./event-retention.js";
import type { GraphCatalog } from "./graph-catalog.js";
import { notifyingStore } from "./notifying-store.js";
import {
  DEFAULT_PAGE_STREAM_CAPS,
  type PageStreamCaps,
  pageEventRoute,
} from "./page-event-route.js";
import { PageEvents } from "./page-events.js";
import { startHeartbeat } from "./replica-heartbeat.js";
import { allowedOrigins } from "./request-origin.js";
import { DEFAULT_RUN_DEADLINE_MS } from "./run-limits.js";
import { runQueue } from "./run-queue.js";
import { RunRegistry } from "./run-registry.js";
import { recordsKey } from "./sealed-context.js";
import type { ServerParts } from "./server-parts.js";
import { memoryStore, type ServerStore } from "./server-store.js";
import { sqlAssistants } from "./sql-assistant-store.js";
import { postgresSql, sqliteSql, sqlStore } from "./sql-server-store.js";
import { stopGate } from "./stop-gate.js";
import { DEFAULT_TENANT_CAPS } from "./tenant-caps.js";
import { threadStatusMemo } from "./thread-status-memo.js";
import { webPageRoutes } from "./web-page.js";

export interface ServeOptions {
  exec: Executor;
  graphs: GraphCatalog;
  auth: Authenticator | undefined;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Default 4 MiB: above the executor's 1 MiB input limit, so that one answers with its own error. */
  maxBodyBytes?: number;
  /**
   * Bytes of memory one run's server-sent events kept for `joinStream` take (value-memory.ts's
   * estimate, not their JSON); past it, its oldest
   * go. Default 16 MiB (event-retention.ts).
   */
  maxRunEventBytes?: number;
  /** Bytes of all runs' events kept; past it, finished runs' go first. Default 64 MiB. */
  maxEventBytes?: number;
  /**
   * Background runs one tenant may have queued; past it `runs.create` is a 429 with
   * `retry-after`. Default 100 (tenant-caps.ts). Without authentication, all callers are one tenant.
   */
  maxQueuedPerTenant?: number;
  /**
   * Runs one tenant may have running, background and streamed, on all replicas; its further
   * background runs wait in the queue, its streamed runs are a 429. Default 8.
   */
  maxRunningPerTenant?: number;
  /**
   * How long a run may take from its start; a run may ask for less
   * (`config.configurable.graphspec_deadline`). Past it the run stops at a checkpoint:
   * `deadline-exceeded`. Default one hour; `null`: no bound.
   */
  runDeadlineMs?: number | null;
  /**
   * Tokens one run's model calls may use; a run may ask for fewer
   * (`config.configurable.graphspec_max_tokens`). Past it: `budget-exceeded`. Default: no bound.
   */
  runMaxTokens?: number;
  /** Saved assistants (`assistants.create`) one tenant may keep; past it, a 403. Default 100. */
  maxAssistantsPerTenant?: number;
  /**
   * Bytes of one saved assistant's config, context, metadata, name and description, as JSON;
   * past it, a 413. Default 64 KiB.
   */
  maxAssistantBytes?: number;
  version?: string;
  /**
   * Where thread and run records live: in this process (default), the SQLite file a restart
   * keeps, or PostgreSQL — which replicas share, with its queue of background runs. Give the
   * checkpointer's own database.
   */
  records?: "memory" | { sqlite: string } | { postgres: string };
  /**
   * With records in a database: how often this replica beats (default 2000 ms). A replica silent
   * for five beats is taken for dead and its runs are released (replica-heartbeat.ts).
   */
  heartbeatMs?: number;
  /**
   * The key that seals background runs' contexts in a shared store's records (32 bytes: 64 hex
   * digits or base64; every replica gives the same). Without it, a background run with a context
   * is driven by the replica that accepted it, its context kept in that replica's memory only.
   */
  recordsKey?: string;
  /**
   * Host names answered besides loopback names, IP literals and `host` (`--allow-host`). On a
   * wildcard `host` (0.0.0.0, `::`) any name is answered unless this is given.
   */
  allowHosts?: string[];
  /** Origins whose pages may call the API besides the server's own (`--allow-origin`), with CORS. */
  allowOrigins?: string[];
  /** Serve the web page at `/` (graphspec dev): the folder of the built page, or true for dist/web. */
  page?: boolean | string;
  /**
   * With the page: subscribes a listener to the graphs' loads, reloads and refusals (graphspec
   * dev's `onReload`), so the page hears of them on its stream of events; returns the unsubscribe.
   */
  graphChanges?: (listener: () => void) => () => void;
  /** With the page: its streams of events open at once, in all and per client (page-event-route.ts). */
  pageStreams?: Partial<PageStreamCaps>;
  /**
   * The stand-ins a run may choose for the models (`config.configurable.graphspec_stand_in`),
   * listed in each assistant's `metadata.graphspec.stand_ins`: graphspec dev's fixtures and
   * recordings. Without it (serve), a run naming one is refused.
   */
  standIns?: StandInCatalog;
}

export interface RunningServer {
  url: string;
  port: number;
  /** Stops taking requests, waits up to `graceMs` for runs in flight, cancels the rest, closes the executor. */
  close(graceMs?: number): Promise<void>;
  /** Bytes of runs' events this server keeps now (within `maxEventBytes`). */
  retainedEventBytes(): number;
}

export async function startServer(o: ServeOptions): Promise<RunningServer> {
  const caps = {
    maxQueued: o.maxQueuedPerTenant ?? DEFAULT_TENANT_CAPS.maxQueued,
    maxRunning: o.maxRunningPerTenant ?? DEFAULT_TENANT_CAPS.maxRunning,
  };
  for (const [name, v] of Object.entries({
    maxQueuedPerTenant: caps.maxQueued,
    maxRunningPerTenant: caps.maxRunning,
  }))
    if (!Number.isInteger(v) || v < 1)
      throw new RangeError(`startServer: ${name} must be a whole number of runs, 1 or more`);
  const runLimits = {
    deadlineMs: o.runDeadlineMs === null ? undefined : (o.runDeadlineMs ?? DEFAULT_RUN_DEADLINE_MS),
    maxTokens: o.runMaxTokens,
  };
  for (const [name, v] of Object.entries(runLimits))
    if (v !== undefined && !(Number.isSafeInteger(v) && v > 0))
      throw new RangeError(
        `startServer: ${name === "deadlineMs" ? "runDeadlineMs" : "runMaxTokens"} must be a whole number above 0`,
      );
  for (const [name, v] of Object.entries({
    maxAssistantsPerTenant: o.maxAssistantsPerTenant,
    maxAssistantBytes: o.maxAssistantBytes,
  }))
    if (v !== undefined && (!Number.isInteger(v) || v < 1))
      throw new RangeError(`startServer: ${name} must be a whole number, 1 or more`);
  for (const [name, v] of Object.entries(o.pageStreams ?? {}))
    if (!Number.isInteger(v) || v < 1)
      throw new RangeError(`startServer: pageStreams.${name} must be a whole number, 1 or more`);
  const key = o.recordsKey === undefined ? undefined : recordsKey(o.recordsKey);
  const records = o.records ?? "memory";
  // The page hears of every write to a thread or its runs (notifying-store.ts).
  const events = o.page ? new PageEvents() : undefined;
  const sql =
    records === "memory"
      ? undefined
      : "sqlite" in records
        ? await sqliteSql(records.sqlite)
        : await postgresSql(records.postgres);
  const recordsStore: ServerStore = sql ? sqlStore(sql) : memoryStore();
  // A search by status keeps what it read until the thread changes (thread-status-memo.ts).
  const statuses = threadStatusMemo();
  const store = notifyingStore(recordsStore, (id) => {
    statuses.evict(id);
    events?.threadChanged(id);
  });
  const runs = new RunRegistry(
    store,
    undefined,
    {
      maxRunEventBytes: o.maxRunEventBytes ?? DEFAULT_EVENT_RETENTION.maxRunEventBytes,
      maxEventBytes: o.maxEventBytes ?? DEFAULT_EVENT_RETENTION.maxEventBytes,
    },
    o.graphs.root,
    caps.maxRunning,
  );
  const parts: ServerParts = {
    exec: o.exec,
    graphs: o.graphs,
    runs,
    store,
    assistants: sql ? sqlAssistants(sql) : memoryAssistants(),
    assistantCaps: {
      ...DEFAULT_ASSISTANT_CAPS,
      ...(o.maxAssistantsPerTenant !== undefined ? { maxCount: o.maxAssistantsPerTenant } : {}),
      ...(o.maxAssistantBytes !== undefined ? { maxBytes: o.maxAssistantBytes } : {}),
    },
    queue: undefined,
    statuses,
    caps,
    auth: o.auth,
    maxBodyBytes: o.maxBodyBytes ?? 4 * 1024 * 1024,
    runLimits,
    recordsKey: key,
    standIns: o.standIns,
    origins: {
      host: o.host ?? "127.0.0.1",
      allowHosts: o.allowHosts,
      allowOrigins: o.allowOrigins && allowedOrigins(o.allowOrigins),
    },
  };
  // Beating before any run is recorded: a replica killed later is found by its silence.
  const heartbeat = store.replicas
    ? await startHeartbeat(store.replicas, runs.replica, o.exec, o.heartbeatMs)
    : undefined;
  parts.queue = runQueue(parts);
  if (events) runs.onStep = (id) => events.threadChanged(id);
  const unsubscribe = events && o.graphChanges?.(() => events.graphsChanged());
  const page = events
    ? {
        ...(await webPageRoutes(typeof o.page === "string" ? o.page : undefined)),
        events: pageEventRoute(events, { ...DEFAULT_PAGE_STREAM_CAPS, ...o.pageStreams }),
      }
    : undefined;
  const app = serverApp(parts, o.version ?? "0", page);
  const gate = stopGate(app.fetch);
  const host = o.host ?? "127.0.0.1";
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: gate.fetch, hostname: host, port: o.port ?? 0 }, () => resolve(s));
    s.once("error", reject);
  });
  gate.watch(server);
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    retainedEventBytes: () => runs.eventBytes,
    async close(graceMs = 10_000) {
      // From now on a request gets a 503 and a run is refused: nothing new reaches the records.
      gate.stop();
      runs.stop();
      const closed = new Promise<void>((r) => server.close(() => r()));
      unsubscribe?.();
      events?.close();
      // Idle keep-alive connections would go on taking requests: closed now, busy ones when done.
      (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      // No more queued runs taken here; those still queued wait for another replica.
      await parts.queue?.stop();
      const deadline = Date.now() + graceMs;
      const timer = setTimeout(() => {
        // Past the grace period: stopped at a checkpoint; a background run goes back to the
        // queue, to go on from there on another replica (run-registry.ts).
        for (const r of runs.unfinished()) {
          r.handBack = true;
          r.abort.abort();
        }
      }, graceMs);
      // Runs started by requests that were in the app when the stop came are waited for too.
      for (let left = runs.unfinished(); left.length; left = runs.unfinished())
        await Promise.all(left.map((r) => r.done));
      // Their answers (a `runs.wait`'s values are read after its run, a stream's last events
      // follow it) go out before the connections and the records close: waited for within the
      // grace (a follower of another replica's run would hold it), or a second past it.
      await gate.settled(Math.max(deadline - Date.now(), 1000));
      clearTimeout(timer);
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closed;
      await heartbeat?.stop();
      await store.close();
      await o.exec.close();
    },
  };
}
