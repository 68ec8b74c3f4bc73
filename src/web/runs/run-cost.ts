/**
 * A run's cost from its usage and the prices the spec gives its models (`models.<name>.price`,
 * USD per million tokens, in the assistant's `metadata.graphspec.models`) — or, for a message
 * whose provider or gateway said what it cost, that figure. Only when every model message with
 * usage has a cost or can be priced: a partial sum would look like the whole cost.
 */

import { isJsonObject } from "../json-object.js";
import type { ModelUsage } from "./run-progress.js";

export interface PricedModel {
  /** `provider:name`, as in the spec. */
  model: string;
  price?: { input: number; output: number };
}

/** The models an assistant's metadata lists (graphspec's server puts them there). */
export function modelsOfMetadata(metadata: unknown): Record<string, PricedModel> {
  const models =
    isJsonObject(metadata) && isJsonObject(metadata.graphspec)
      ? metadata.graphspec.models
      : undefined;
  if (!isJsonObject(models)) return {};
  const out: Record<string, PricedModel> = {};
  for (const [name, m] of Object.entries(models)) {
    if (!isJsonObject(m) || typeof m.model !== "string") continue;
    const p = m.price;
    const price =
      isJsonObject(p) && typeof p.input === "number" && typeof p.output === "number"
        ? { input: p.input, output: p.output }
        : undefined;
    out[name] = price ? { model: m.model, price } : { model: m.model };
  }
  return out;
}

/**
 * The spec model a message came from, by the name the stream gives (`ls_model_name`: the
 * provider's model name, `gpt-4o-mini`; a response's `model_name` may add a version,
 * `gpt-4o-mini-2024-07-18`). Without a name, the spec's only model, if it has one.
 */
function modelFor(name: string | undefined, models: PricedModel[]): PricedModel | undefined {
  if (name === undefined) return models.length === 1 ? models[0] : undefined;
  const bare = (m: PricedModel) => m.model.slice(m.model.indexOf(":") + 1);
  return (
    models.find((m) => m.model === name || bare(m) === name) ??
    models.find((m) => name.startsWith(`${bare(m)}-`))
  );
}

/** USD, or undefined when nothing was used yet or a message has neither a cost nor a price. */
export function costOf(
  usage: Record<string, ModelUsage>,
  models: Record<string, PricedModel>,
): number | undefined {
  const list = Object.values(models);
  const used = Object.values(usage);
  if (!used.length) return undefined;
  let usd = 0;
  for (const u of used) {
    // What the provider or gateway said the call cost is what it cost: `price` only estimates.
    if (u.cost !== undefined) {
      usd += u.cost;
      continue;
    }
    const price = modelFor(u.model, list)?.price;
    if (!price) return undefined;
    usd += (u.input * price.input + u.output * price.output) / 1_000_000;
  }
  return usd;
}

/** `$0.000123` for small sums, `$1.2346` above a cent: enough digits to see it grow. */
export const formatUsd = (usd: number): string => `$${usd.toFixed(usd < 0.01 ? 6 : 4)}`;
