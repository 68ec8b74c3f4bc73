/**
 * How an executor finds and compiles its graphs: a graph name (`support-triage` →
 * graphs/support-triage.yaml) or a spec path to the spec file, and each spec compiled — with the
 * executor's checkpointer, store, models, tools and scripts — into the version a run takes, through
 * the graph registry (graph-registry.ts) a watcher reloads in `graphspec dev`.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { compile, type SpecGraph } from "../compile/compile.js";
import type { McpConnections } from "../compile/mcp/mcp-connections.js";
import { ScriptQueues } from "../compile/models/script.js";
import { contextResolver, type ResolveContext } from "../compile/run-context.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import { loadSpec } from "../spec/load.js";
import { findProjectRoot } from "../spec/project-root.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import type { ExecutorOptions } from "./executor-api.js";
import { type GraphRegistry, type GraphRegistryOptions, graphRegistry } from "./graph-registry.js";
import type { Persistence } from "./persistence.js";
import { type SpecSecrets, specSecrets } from "./run-secrets.js";

/** A graph as one version of its spec compiled it. */
export interface Loaded {
  graph: SpecGraph;
  spec: GraphSpec;
  /** Checks a run's context against the spec's `context` (before any node runs and spends). */
  checkContext: ResolveContext;
  secrets: SpecSecrets;
  /** What the check found when it compiled: warnings only (a spec with errors does not compile). */
  warnings: readonly Diagnostic[];
}

/** How the graph registry is set up: for `graphspec dev`, built to be reloaded (graph-registry.ts). */
export type RegistryOptions = Pick<GraphRegistryOptions<Loaded>, "reload" | "extraFiles">;

export interface GraphLoader {
  registry: GraphRegistry<Loaded>;
  /** The spec file of a graph name or path. */
  pathOf(graph: string): string;
  /** The newest good version of a graph: a run takes it once and keeps it to its end. */
  load(graph: string): Promise<Loaded>;
}

const SPEC_EXTENSIONS = [".yaml", ".yml", ".json"];

/** The graphs of `dir` (resolved), compiled with what `persisted` opens. */
export function graphLoader(
  dir: string,
  options: ExecutorOptions,
  registryOptions: RegistryOptions,
  persisted: Pick<Persistence, "saver" | "store"> & { mcp: McpConnections },
): GraphLoader {
  const { saver, store, mcp } = persisted;
  // A scripted model without a script (none given, or not this one — a subgraph's model too) fails
  // when it is called, not when the graph compiles: a run that never calls it needs none, as in
  // `graphspec test`, and reading a scripted graph's threads (inspect, history) calls no model.
  const scripts =
    options.scripts instanceof ScriptQueues
      ? options.scripts
      : new ScriptQueues(options.scripts ?? {}, { anyName: true });

  /** A graph name (`support-triage` → graphs/support-triage.yaml) or a spec path. */
  const pathOf = (graph: string): string => {
    if (SPEC_EXTENSIONS.some((e) => graph.endsWith(e))) return resolve(graph);
    const found = SPEC_EXTENSIONS.map((e) => join(dir, `${graph}${e}`)).find((p) => existsSync(p));
    return found ?? join(dir, `${graph}.yaml`);
  };

  const registry = graphRegistry<Loaded>({
    root: findProjectRoot(dir),
    ...registryOptions,
    async build(path, cache) {
      const doc = await loadSpec(path);
      const { saver: cp } = await saver();
      const { models, tools, env, recording, modelTimeoutMs } = options;
      const given = await store();
      const compileOptions = {
        scripts,
        models,
        tools,
        env,
        ...(recording ? { recording } : {}),
        ...(modelTimeoutMs !== undefined ? { modelTimeoutMs } : {}),
        // Scripts given make the runs offline (script-key.ts), unless `offline: false`.
        offline: options.offline ?? options.scripts !== undefined,
        checkpointer: cp,
        cache,
        mcp,
        ...(given ? { store: given } : {}),
      };
      const spec = doc.data as GraphSpec;
      let warnings: readonly Diagnostic[] = [];
      const graph = await compile(doc, {
        ...compileOptions,
        onDiagnostics: (found) => {
          warnings = found;
        },
      });
      return {
        graph,
        warnings,
        spec,
        checkContext: contextResolver(spec),
        secrets: await specSecrets(doc, options.env ?? process.env),
      };
    },
  });
  const load = async (graph: string): Promise<Loaded> => (await registry.get(pathOf(graph))).value;
  return { registry, pathOf, load };
}
