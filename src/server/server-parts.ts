/** What every route of the server reaches: the executor, the graphs, runs and thread records, the limits. */
import type { Executor } from "../run/executor-api.js";
import type { Authenticator, Caller } from "./auth.js";
import type { GraphCatalog } from "./graph-catalog.js";
import type { RunRegistry } from "./run-registry.js";
import type { Tenancy } from "./tenancy.js";
import type { ThreadRecords } from "./thread-records.js";

export interface ServerParts {
  exec: Executor;
  graphs: GraphCatalog;
  runs: RunRegistry;
  threads: ThreadRecords;
  /** Undefined: no authentication (`--no-auth`, or `dev` on 127.0.0.1). */
  auth: Authenticator | undefined;
  maxBodyBytes: number;
}

/** What the auth middleware puts on each request. */
export interface RequestVars {
  tenancy: Tenancy;
  caller: Caller | undefined;
}

export type ServerEnv = { Variables: RequestVars };
