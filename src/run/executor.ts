/**
 * The generic executor: compiles graphs by name or path once, runs and resumes
 * them on threads with a checkpointer, and returns a RunResult — status, output, interrupts, next
 * nodes, summed token usage, warnings, and a structured error instead of a thrown one.
 *
 * Its parts, each with one job: persistence.ts (checkpointer and store, opened on first use),
 * graph-loader.ts (graph names to specs, compiled through the registry dev reloads),
 * execute-run.ts (one run on a thread and its RunResult), resume-input.ts (what a resume runs),
 * run-driver.ts (`run`, `resume`, `stream`) and thread-operations.ts (reading, writing, listing
 * and deleting threads). This file puts them together.
 */
import { resolve } from "node:path";
import { McpConnections } from "../compile/mcp/mcp-connections.js";
import { findProjectRoot } from "../spec/project-root.js";
import { secretValues } from "../spec/secrets.js";
import { callGate, gatedCalls } from "./call-gate.js";
import { executeRun } from "./execute-run.js";
import type { Executor, ExecutorOptions } from "./executor-api.js";
import { graphLoader, type Loaded, type RegistryOptions } from "./graph-loader.js";
import type { GraphRegistry } from "./graph-registry.js";
import { persistence } from "./persistence.js";
import { resumeInputOf } from "./resume-input.js";
import { runDriver } from "./run-driver.js";
import { sizeLimits } from "./size-limits.js";
import { threadGraphs } from "./thread-graph.js";
import { threadOperations } from "./thread-operations.js";
import { threadIndex } from "./threads.js";

export function createExecutor(options: ExecutorOptions = {}): Executor {
  return createReloadableExecutor(options).executor;
}

export type { Loaded, RegistryOptions };

/** An executor, the registry it loads graphs through, which a watcher reloads, and its MCP connections (dev/). */
export function createReloadableExecutor(
  options: ExecutorOptions = {},
  registryOptions: RegistryOptions = {},
): { executor: Executor; registry: GraphRegistry<Loaded>; mcp: McpConnections } {
  const dir = resolve(options.dir ?? "graphs");
  const limits = sizeLimits(options);
  const { saver, store, close } = persistence(options, limits);
  /** The environment's secret-looking variables and the secrets given: masked in every run (run-secrets.ts). */
  const envSecrets = [...secretValues(options.env ?? process.env), ...(options.secrets ?? [])];
  // One connection per MCP server for all the executor's graphs, closed with it.
  const mcp = new McpConnections();
  const { registry, pathOf, load } = graphLoader(dir, options, registryOptions, {
    saver,
    store,
    mcp,
  });

  const index = threadIndex(saver);
  // Specs a thread names in its checkpoints are loaded only from inside this project (thread-graph.ts).
  const owners = threadGraphs(findProjectRoot(dir), index.storedGraph);
  const execute = executeRun({ options, limits, saver, graphs: { load, pathOf }, envSecrets });
  const resumeInput = resumeInputOf({ saver, execute });
  const driver = runDriver({
    saver,
    graphs: { load, pathOf },
    index,
    owners,
    execute,
    resumeInput,
  });
  const threads = threadOperations({
    saver,
    graphs: { load, pathOf },
    index,
    owners,
    execute,
    limits,
    envSecrets,
  });

  // close() waits for the calls in flight, refuses later ones, then releases connections.
  const gate = callGate();
  let closed: Promise<void> | undefined;
  const executor: Executor = {
    ...gatedCalls({ ...threads, ...driver }, gate),
    close: () => {
      closed ??= gate.drain().then(async () => {
        await Promise.all([close(), mcp.close()]);
      });
      return closed;
    },
  };
  return { executor, registry, mcp };
}
