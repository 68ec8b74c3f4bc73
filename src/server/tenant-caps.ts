/**
 * Each tenant's share of the server: at most `maxQueued` background runs waiting in the queue and
 * `maxRunning` runs running — background and streamed (`runs.stream`, `runs.wait`) alike, on every
 * replica of a shared store. The queue takes the oldest run of the tenant with the fewest runs
 * running (run-queue.ts), and never one of a tenant at its running cap: one tenant's flood waits
 * behind its own runs, not in front of another's. Past a cap the request is a 429 with
 * `retry-after`. Without authentication every caller is one tenant (`""`).
 */
import { ApiError } from "./api-error.js";

export interface TenantCaps {
  /** Background runs of one tenant waiting in the queue (`--max-queued-per-tenant`). */
  maxQueued: number;
  /** Runs of one tenant running, background and streamed (`--max-running-per-tenant`). */
  maxRunning: number;
}

/**
 * 8 running: half of a replica's 16 background slots (run-queue.ts), so one tenant alone never
 * fills a replica; 100 queued: a batch's worth, bounded rows per tenant in the queue.
 */
export const DEFAULT_TENANT_CAPS: TenantCaps = { maxQueued: 100, maxRunning: 8 };

/** Seconds a refused client is told to wait: about a short run's time, not a busy loop. */
export const RETRY_AFTER_SECONDS = 5;

/** The key of a tenant in the records: `""` without authentication. */
export const tenantKey = (tenant: string | undefined): string => tenant ?? "";

export function tooManyQueued(cap: number): ApiError {
  return new ApiError(
    429,
    "too-many-queued-runs",
    `this tenant has ${cap} background runs queued already, the most it may`,
    {
      hint: `wait for some to start (retry-after), cancel some, or start the server with a larger --max-queued-per-tenant (startServer({ maxQueuedPerTenant }), now ${cap})`,
    },
    RETRY_AFTER_SECONDS,
  );
}

export function tooManyRunning(cap: number): ApiError {
  return new ApiError(
    429,
    "too-many-running-runs",
    `this tenant has ${cap} runs running already, the most it may`,
    {
      hint: `wait for one to end (retry-after), start it in the background (runs.create queues it), or start the server with a larger --max-running-per-tenant (startServer({ maxRunningPerTenant }), now ${cap})`,
    },
    RETRY_AFTER_SECONDS,
  );
}
