/**
 * The run form's controls as a saved assistant's configuration, and back (docs/server.md, "Saved
 * assistants"): `config.configurable.model` and `toolIds`, `config.recursion_limit`, and
 * graphspec's `config.interrupt_before` / `interrupt_after` — what `assistants.create` keeps and a
 * run with the assistant's id runs with.
 */
import type { Assistant, Config } from "@langchain/langgraph-sdk";
import {
  noRunOptions,
  type RunChoices,
  type RunOptions,
  runPayload,
  strings,
} from "./run-options.js";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A saved assistant's config from the run options (no stand-in: that is the tab's choice). */
export function assistantConfig(options: RunOptions, choices: RunChoices): Config {
  const run = runPayload(options, choices, "");
  const config: Json = { ...(run.config ?? {}) };
  if (run.interruptBefore) config.interrupt_before = run.interruptBefore;
  if (run.interruptAfter) config.interrupt_after = run.interruptAfter;
  return config as Config;
}

/** The run options a saved assistant's config sets, among what the graph offers. */
export function optionsOfAssistant(
  config: unknown,
  choices: RunChoices,
  nodes: readonly string[],
): RunOptions {
  const c = isObj(config) ? config : {};
  const configurable = isObj(c.configurable) ? c.configurable : {};
  const model = typeof configurable.model === "string" ? configurable.model : "";
  const toolIds = Array.isArray(configurable.toolIds) ? strings(configurable.toolIds) : undefined;
  const limit = c.recursion_limit;
  return {
    ...noRunOptions(),
    model: choices.models.includes(model) ? model : "",
    toolsOff: toolIds ? choices.tools.filter((t) => !toolIds.includes(t)) : [],
    pauseBefore: strings(c.interrupt_before).filter((n) => nodes.includes(n)),
    pauseAfter: strings(c.interrupt_after).filter((n) => nodes.includes(n)),
    recursionLimit: typeof limit === "number" ? String(limit) : "",
  };
}

/** The graph's saved assistants (not its own, which the spec makes), by name. */
export const savedOnly = (list: readonly Assistant[], graph: string): Assistant[] =>
  list
    .filter((a) => a.graph_id === graph && a.metadata?.created_by !== "system")
    .sort((a, b) => a.name.localeCompare(b.name));
