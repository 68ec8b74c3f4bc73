/**
 * A spec as a graph export the official LangGraph server (`langgraphjs dev`, LangGraph Platform)
 * loads: what the entry module `graphspec export langgraph` writes calls. The spec is compiled once,
 * when the module loads (a spec that no longer compiles stops the server from starting, with its
 * diagnostics), without a checkpointer: the platform sets its own on the graph it gets. A run's
 * failure reaches the platform's clients as graphspec's run error (platform-run-error.ts).
 */
import { readFileSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { IterableReadableStream } from "@langchain/core/utils/stream";
import { compile } from "../compile/compile.js";
import type { Scripts } from "../compile/models/index.js";
import type { SpecGraph } from "../compile/spec-graph.js";
import { loadSpec } from "../spec/load.js";
import { findProjectRoot } from "../spec/project-root.js";
import { platformRunError } from "./platform-run-error.js";

/** The run's config, as the platform hands it to a graph factory. */
export interface PlatformConfig {
  configurable?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A graph factory: called by the platform with the run's config each time it needs the graph. */
export type PlatformGraphFactory = (config?: PlatformConfig) => SpecGraph;

/** Modules and child specs shared by every graph of one entry module: each loads once. */
const shared = new Map<string, unknown>();

/**
 * Answers for `scripted:NAME` models from GRAPHSPEC_SCRIPTS (JSON text, or `@file` relative to the
 * working directory): how a graph served by another process is run offline.
 */
function scriptsFromEnv(env: NodeJS.ProcessEnv): Scripts | undefined {
  const text = env.GRAPHSPEC_SCRIPTS;
  if (!text) return undefined;
  const json = text.startsWith("@") ? readFileSync(text.slice(1), "utf8") : text;
  try {
    return JSON.parse(json) as Scripts;
  } catch (e) {
    throw new Error(
      `GRAPHSPEC_SCRIPTS is not JSON (${(e as Error).message}): give the scripts by NAME, e.g. {"triage": ["an answer"]}, or @file`,
    );
  }
}

/**
 * Compiles the spec at `spec` (a path, or a `file:` URL such as `new URL("x.yaml", import.meta.url)`)
 * and returns a factory of the graph. Each call gives a copy of its own: the platform sets its
 * checkpointer and store on the graph it gets, and one run's must not land on another's. The
 * run's config is read when it starts (the model it chooses, `configurable.model`), not here.
 */
export async function platformGraph(spec: string | URL): Promise<PlatformGraphFactory> {
  const path = resolve(spec instanceof URL ? fileURLToPath(spec) : spec);
  const scripts = scriptsFromEnv(process.env);
  // Named relative to the project, as `graphspec serve` names it: an error that quotes the spec
  // file (a failed expression's place, say) tells the platform's clients no path of the server's.
  const root = findProjectRoot(dirname(path));
  const doc = await loadSpec(path, { root, file: relative(root, path).split(sep).join("/") });
  const graph = await compile(doc, { cache: shared, ...(scripts ? { scripts } : {}) });
  return () => reportingRunErrors(graph.withConfig({}) as SpecGraph, root);
}

/**
 * `graph`, whose runs fail with graphspec's run errors. Its `stream` is what LangGraph's `invoke`
 * and `streamEvents` (the platform's call) run through, so that is where errors are caught.
 * A run the platform cancelled (its signal) fails as LangGraph failed it: the platform reads the
 * signal, not the error, and no client is waiting for the error.
 */
function reportingRunErrors(graph: SpecGraph, root: string): SpecGraph {
  const stream = graph.stream.bind(graph);
  const own = async (input: unknown, options?: { signal?: AbortSignal }) => {
    const shaped = (e: unknown) => (options?.signal?.aborted ? e : platformRunError(e, root));
    let chunks: AsyncIterable<unknown>;
    try {
      chunks = await stream(input as never, options as never);
    } catch (e) {
      throw shaped(e);
    }
    return IterableReadableStream.fromAsyncGenerator(
      (async function* () {
        try {
          yield* chunks;
        } catch (e) {
          throw shaped(e);
        }
      })(),
    );
  };
  graph.stream = own as typeof graph.stream;
  return graph;
}
