/**
 * A spec as a graph export the official LangGraph server (`langgraphjs dev`, LangGraph Platform)
 * loads: what the entry module `graphspec export langgraph` writes calls. The spec is compiled once,
 * when the module loads (a spec that no longer compiles stops the server from starting, with its
 * diagnostics), without a checkpointer: the platform sets its own on the graph it gets.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compile } from "./compile.js";
import type { Scripts } from "./models/index.js";
import type { SpecGraph } from "./spec-graph.js";

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
  const path = spec instanceof URL ? fileURLToPath(spec) : spec;
  const scripts = scriptsFromEnv(process.env);
  const graph = await compile(path, { cache: shared, ...(scripts ? { scripts } : {}) });
  return () => graph.withConfig({}) as SpecGraph;
}
