/**
 * The run form's controls as a saved assistant's configuration, and back (docs/server.md, "Saved
 * assistants"): `config.configurable.model` and `toolIds`, `config.recursion_limit`, and
 * graphspec's `config.interrupt_before` / `interrupt_after` — what `assistants.create` keeps and a
 * run with the assistant's id runs with.
 */
import type { Assistant, Config } from "@langchain/langgraph-sdk";
import type { JsonSchema } from "../forms/schema-fields.js";
import { isJsonObject, type JsonObject } from "../json-object.js";
import {
  noRunOptions,
  type RunChoices,
  type RunOptions,
  runPayload,
  strings,
} from "./run-options.js";

/** A saved assistant's config from the run options (no stand-in: that is the tab's choice). */
export function assistantConfig(options: RunOptions, choices: RunChoices): Config {
  const run = runPayload(options, choices, "");
  const config: JsonObject = { ...(run.config ?? {}) };
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
  const c = isJsonObject(config) ? config : {};
  const configurable = isJsonObject(c.configurable) ? c.configurable : {};
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

/**
 * The context form's schema when the run starts with a saved assistant: a field its context gives
 * is no longer required on the form (the server merges the assistant's context under the form's,
 * so left empty, the assistant's value applies), and its help says so, with the value (a secret
 * as the server shows it, `***`). Without this a required field had to be typed again though the
 * assistant picked already gave it.
 */
export function contextGivenBy(
  schema: JsonSchema,
  assistant: Pick<Assistant, "name" | "context"> | undefined,
): JsonSchema {
  const given = isJsonObject(assistant?.context) ? assistant.context : {};
  const props = schema.properties ?? {};
  const keys = Object.keys(given).filter((k) => k in props);
  if (!assistant || !keys.length) return schema;
  const properties = { ...props };
  for (const k of keys) {
    const own = properties[k]?.description;
    const note = `Given by the assistant “${assistant.name}”: ${JSON.stringify(given[k])}. Left empty, that applies; a value typed here is used instead.`;
    properties[k] = { ...properties[k], description: own ? `${own} ${note}` : note };
  }
  return {
    ...schema,
    properties,
    required: (schema.required ?? []).filter((k) => !keys.includes(k)),
  };
}
