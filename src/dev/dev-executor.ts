/**
 * The executor of `graphspec dev`: the ordinary executor, loading its graphs through a registry
 * built to be reloaded, and a watcher that reloads them when their files change — in this process,
 * no restart. Runs in flight keep the version they started with; new runs get the newest good one.
 */
import { resolve } from "node:path";
import { createReloadableExecutor } from "../run/executor.js";
import type { Executor, ExecutorOptions } from "../run/executor-api.js";
import type { ServedStatus } from "../server/assistant-metadata.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import type { ReloadEvent } from "./reload-event.js";
import { DEFAULT_DEBOUNCE_MS, watchGraphs } from "./watch-graphs.js";

export interface DevExecutorOptions extends ExecutorOptions {
  /** Told of every load, reload and refused change (the CLI prints them). */
  onReload?: (event: ReloadEvent) => void;
  /** Quiet time gathering a save's writes into one reload. Default 15 ms. */
  debounceMs?: number;
  /** Files a graph depends on beyond its references (a shared catalog): a change reloads it. */
  extraFiles?: (specPath: string) => Iterable<string>;
}

export interface DevExecutor {
  executor: Executor;
  /** Resolves when every spec of the graphs directory was loaded once and the files are watched. */
  ready: Promise<void>;
  /** The version new runs of a graph get (1, 2, …), or undefined before its first good build. */
  versionOf(graph: string): number | undefined;
  /**
   * The spec of the version new runs of the spec file `path` get, or undefined before its first
   * good build: what the server's assistants describe (a refused file is not what serves).
   */
  servedSpec(path: string): GraphSpec | undefined;
  /**
   * Where the spec file `path` stands: the version that serves and when it came in, and the
   * refused change sitting in the file, if any (what the assistant's metadata shows).
   */
  statusOf(path: string): ServedStatus | undefined;
  /** Module versions held: one per distinct content of each referenced module file, ever. */
  moduleVersionCount(): number;
  /** Resolves when no change is waiting or being built. */
  idle(): Promise<void>;
  /** Stops watching and closes the executor. */
  close(): Promise<void>;
}

export function createDevExecutor(options: DevExecutorOptions = {}): DevExecutor {
  const { onReload, debounceMs = DEFAULT_DEBOUNCE_MS, extraFiles, ...executorOptions } = options;
  const dir = resolve(executorOptions.dir ?? "graphs");
  const versions = new Map<string, number>();
  const statuses = new Map<string, ServedStatus>();
  const { executor, registry, mcp } = createReloadableExecutor(
    { ...executorOptions, dir },
    { reload: true, ...(extraFiles ? { extraFiles } : {}) },
  );
  const watcher = watchGraphs(
    dir,
    registry,
    (event) => {
      if (event.type === "reloaded") {
        const warnings = registry.current(event.path)?.value.warnings ?? [];
        versions.set(event.path, event.version);
        statuses.set(event.path, { version: event.version, updatedAt: new Date(), warnings });
        onReload?.(warnings.length ? { ...event, warnings } : event);
        return;
      } else if (event.type === "rejected") {
        const known = statuses.get(event.path);
        statuses.set(event.path, {
          version: event.kept ?? known?.version,
          updatedAt: known?.version !== undefined ? known.updatedAt : new Date(),
          refused: { message: event.message, diagnostics: event.diagnostics },
        });
      }
      onReload?.(event);
    },
    debounceMs,
  );
  // A spec refused because an MCP server was down is built again once the server is back.
  mcp.onBack = (path) => {
    if (statuses.get(path)?.refused) watcher.rebuild(path);
  };
  const pathOf = (graph: string) =>
    registry
      .paths()
      .find(
        (p) =>
          p === resolve(graph) ||
          [".yaml", ".yml", ".json"].some((e) => p === resolve(dir, graph + e)),
      );
  return {
    executor,
    ready: watcher.ready,
    versionOf(graph) {
      const path = pathOf(graph);
      return path === undefined ? undefined : versions.get(path);
    },
    servedSpec: (path) => registry.current(resolve(path))?.value.spec,
    statusOf: (path) => {
      const status = statuses.get(resolve(path));
      // Its MCP servers as they stand now: up, down (tried again), and the tools taken.
      const servers = mcp.describe(resolve(path));
      return status && servers.length ? { ...status, mcp: servers } : status;
    },
    moduleVersionCount: () => registry.moduleVersionCount,
    idle: () => watcher.idle(),
    async close() {
      await watcher.close();
      await executor.close();
    },
  };
}
