/** What every route of the server reaches: the executor, the graphs, runs and thread records, the limits. */
import type { Executor, StandInCatalog } from "../run/executor-api.js";
import type { AssistantCaps, AssistantStore } from "./assistant-store.js";
import type { Authenticator, Caller } from "./auth.js";
import type { GraphCatalog } from "./graph-catalog.js";
import type { OriginPolicy } from "./request-origin.js";
import type { RunLimitCaps } from "./run-limits.js";
import type { RunRegistry } from "./run-registry.js";
import type { RecordsKey } from "./sealed-context.js";
import type { ServerStore } from "./server-store.js";
import type { Tenancy } from "./tenancy.js";
import type { TenantCaps } from "./tenant-caps.js";
import type { ThreadStatusMemo } from "./thread-status-memo.js";

export interface ServerParts {
  exec: Executor;
  graphs: GraphCatalog;
  runs: RunRegistry;
  /** Thread and run records (server-store.ts); `runs.store` is the same. */
  store: ServerStore;
  /** Saved assistants (assistant-store.ts), beside the records. */
  assistants: AssistantStore;
  /** How many saved assistants a tenant keeps, and how large (assistant-store.ts). */
  assistantCaps: AssistantCaps;
  /** The background-run queue (run-queue.ts). */
  queue: RunQueue | undefined;
  /** Threads' statuses as searches last read them (thread-status-memo.ts). */
  statuses: ThreadStatusMemo;
  /** Each tenant's queued and running runs (tenant-caps.ts). */
  caps: TenantCaps;
  /** Undefined: no authentication (`--no-auth`, or `dev` on 127.0.0.1). */
  auth: Authenticator | undefined;
  maxBodyBytes: number;
  /** Every run's deadline and token budget, at most (run-limits.ts). */
  runLimits: RunLimitCaps;
  /** Seals background runs' contexts in the records (sealed-context.ts); undefined: none given. */
  recordsKey: RecordsKey | undefined;
  /** Which `Host` and `Origin` headers are answered (request-origin.ts). */
  origins: OriginPolicy;
  /** The stand-ins a run may choose for its models (graphspec dev only; stand-in-choice.ts). */
  standIns?: StandInCatalog | undefined;
}

/** What the auth middleware puts on each request. */
export interface RequestVars {
  tenancy: Tenancy;
  caller: Caller | undefined;
}

export type ServerEnv = { Variables: RequestVars };

/** A queued run's context kept in this replica's memory (no records key to seal it with). */
export interface HeldContext {
  /** Its row is in the queue: the context goes once the run is no longer queued. */
  queued(): void;
  /** It was not queued after all. */
  drop(): void;
}

/** The background-run queue (run-queue.ts). */
export interface RunQueue {
  /** Looks for queued runs now (this replica just queued one). */
  kick(): void;
  /** Keeps a run's context here until this replica takes the run (pinned to it). */
  hold(runId: string, context: unknown): HeldContext;
  /** Takes no more runs (the replica stops); waits for the current look to end. */
  stop(): Promise<void>;
}
