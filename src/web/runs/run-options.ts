/**
 * What a run started on the page chooses besides its input and context — LangGraph Studio's run
 * controls, sent as the official SDK sends them: `interruptBefore` / `interruptAfter` (breakpoints
 * for this run), `config.recursion_limit`, and the graph's configuration (`config.configurable`:
 * `model`, one the spec's `allow` lists name; `toolIds`, the tools its models may call), whose
 * choices the assistant's `config_schema` publishes (src/server/run-config-schema.ts).
 */
import type { Config } from "@langchain/langgraph-sdk";
import { isJsonObject, type JsonObject } from "../json-object.js";
import { STAND_IN_FIELD } from "./stand-in-field.js";

export interface RunOptions {
  /** "" : the spec's own models. */
  model: string;
  /** The tools left out (unchecked): none left out sends no `toolIds`, so every tool is allowed. */
  toolsOff: string[];
  pauseBefore: string[];
  pauseAfter: string[];
  /** As typed: "" is the server's default. */
  recursionLimit: string;
}

export const noRunOptions = (): RunOptions => ({
  model: "",
  toolsOff: [],
  pauseBefore: [],
  pauseAfter: [],
  recursionLimit: "",
});

/** The choices a graph's configuration schema offers: its allowed models and its tools. */
export interface RunChoices {
  models: string[];
  tools: string[];
}

export const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

export function choicesOfConfigSchema(schema: unknown): RunChoices {
  const props = isJsonObject(schema) && isJsonObject(schema.properties) ? schema.properties : {};
  const model = isJsonObject(props.model) ? props.model : {};
  const toolIds = isJsonObject(props.toolIds) ? props.toolIds : {};
  const items = isJsonObject(toolIds.items) ? toolIds.items : {};
  return { models: strings(model.enum), tools: strings(items.enum) };
}

/** Why a typed recursion limit cannot be sent, if it cannot (the server allows 1 to 10,000). */
export function recursionLimitProblem(text: string): string | undefined {
  if (text.trim() === "") return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= 10_000
    ? undefined
    : "a whole number from 1 to 10,000";
}

/** The run's fields for the SDK's `runs.stream`, with the stand-in (`""`: none) in its config. */
export function runPayload(
  options: RunOptions,
  choices: RunChoices,
  standIn: string,
): { config?: Config; interruptBefore?: string[]; interruptAfter?: string[] } {
  const configurable: JsonObject = {};
  if (standIn) configurable[STAND_IN_FIELD] = standIn;
  if (options.model) configurable.model = options.model;
  if (options.toolsOff.length)
    configurable.toolIds = choices.tools.filter((t) => !options.toolsOff.includes(t));
  const config: Config = {};
  if (Object.keys(configurable).length) config.configurable = configurable;
  if (options.recursionLimit.trim() !== "" && !recursionLimitProblem(options.recursionLimit))
    config.recursion_limit = Number(options.recursionLimit);
  return {
    ...(Object.keys(config).length ? { config } : {}),
    ...(options.pauseBefore.length ? { interruptBefore: options.pauseBefore } : {}),
    ...(options.pauseAfter.length ? { interruptAfter: options.pauseAfter } : {}),
  };
}
