/**
 * The store a run's nodes and tools see as LangGraph's `store` (cross-thread memory):
 * `memory` (this process only), `postgres` (LangGraph's PostgresStore on the executor's database,
 * its tables made on first use), or any LangGraph store the caller passes.
 */
import { type BaseStore, InMemoryStore } from "@langchain/langgraph";
import { loadPeer } from "../peers/load-peer.js";
import { CheckpointerError } from "./checkpointer-error.js";
import { setupOnce } from "./postgres-setup.js";

export type StoreChoice = "memory" | "postgres" | BaseStore;

export interface OpenStore {
  store: BaseStore;
  close(): Promise<void>;
}

export async function openStore(
  choice: StoreChoice,
  databaseUrl: string | undefined,
): Promise<OpenStore> {
  if (choice === "memory") return { store: new InMemoryStore(), close: async () => {} };
  if (choice !== "postgres") return { store: choice, close: async () => {} };
  if (!databaseUrl) {
    throw new CheckpointerError(
      "the postgres store needs a database, and DATABASE_URL is not set",
      "set DATABASE_URL=postgresql://user:password@host:5432/db (the tables are made on first use)",
    );
  }
  const [{ PostgresStore }, { default: pg }] = await loadPeer("postgres", () =>
    Promise.all([import("@langchain/langgraph-checkpoint-postgres/store"), import("pg")]),
  );
  const store = PostgresStore.fromConnString(databaseUrl);
  // Its pool is its own (no option takes ours): an idle connection the server ends is reported as
  // the pool's `error`, which unheard would end the process (checkpointer.ts says the same of ours).
  (
    store as unknown as { core?: { pool?: { on?: (e: "error", f: () => void) => void } } }
  ).core?.pool?.on?.("error", () => {});
  const session = new pg.Client({ connectionString: databaseUrl });
  session.on("error", () => {});
  try {
    await session.connect();
    await setupOnce(session, () => store.setup());
  } finally {
    await session.end().catch(() => {});
  }
  return { store, close: () => store.stop() };
}
