/**
 * What an executor keeps outside a run: its checkpointer (with the thread claims and the thread
 * listing it brings, checkpointer.ts) and its store (store.ts), each opened on first use, opened
 * again after a failed open, and closed together — for good: what asks after close() is refused
 * rather than given a connection nothing would close.
 */
import type { BaseStore } from "@langchain/langgraph";
import { withBounds } from "./checkpoint-bounds.js";
import { type OpenCheckpointer, openCheckpointer } from "./checkpointer.js";
import type { ExecutorOptions } from "./executor-api.js";
import { ExecutorClosedError } from "./executor-closed.js";
import type { SizeLimits } from "./size-limits.js";
import { type OpenStore, openStore } from "./store.js";

export interface Persistence {
  /** The checkpointer, its size bounds applied (checkpoint-bounds.ts). */
  saver(): Promise<OpenCheckpointer>;
  /** LangGraph's store for nodes and tools; undefined when the executor was given none. */
  store(): Promise<BaseStore | undefined>;
  /** Closes the checkpointer's and the store's connections (a PostgreSQL pool keeps the process alive). */
  close(): Promise<void>;
}

export function persistence(
  options: Pick<ExecutorOptions, "checkpointer" | "sqlitePath" | "databaseUrl" | "store">,
  limits: Required<SizeLimits>,
): Persistence {
  let closed = false;
  let checkpointer: Promise<OpenCheckpointer> | undefined;
  const saver = () => {
    if (closed) return Promise.reject(new ExecutorClosedError("checkpointer"));
    checkpointer ??= withBounds(
      openCheckpointer(options.checkpointer ?? "sqlite", options),
      limits,
    );
    // A checkpointer that could not be opened is tried again next time (the server may be up).
    checkpointer.catch(() => {
      checkpointer = undefined;
    });
    return checkpointer;
  };
  let opened: Promise<OpenStore> | undefined;
  const store = () => {
    if (options.store === undefined) return Promise.resolve(undefined);
    if (closed) return Promise.reject(new ExecutorClosedError("store"));
    opened ??= openStore(options.store, options.databaseUrl ?? process.env.DATABASE_URL);
    opened.catch(() => {
      opened = undefined;
    });
    return opened.then((s) => s.store);
  };
  return {
    saver,
    store,
    async close(): Promise<void> {
      closed = true;
      const open = checkpointer;
      checkpointer = undefined;
      if (open) await (await open.catch(() => undefined))?.close();
      const openedStore = opened;
      opened = undefined;
      if (openedStore) await (await openedStore.catch(() => undefined))?.close();
    },
  };
}
