/**
 * Keeps a run's secrets out of what a checkpointer stores: state values, pending writes (a failed
 * node's `__error__`, interrupts, resume values) and metadata. The executor puts the run's Scrub
 * into its `configurable` (run-secrets.ts); LangGraph passes that config to `put` and `putWrites`,
 * for the run's own checkpoints and its subgraphs', and the wrapper here masks the values before
 * the saver serializes them. A run without secrets gets no Scrub and costs nothing.
 *
 * Values are matched in their serialized form — what the saver would store — so chat messages and
 * other class instances are covered: a value that holds a secret is serialized, masked as JSON
 * (string values only, never keys or LangGraph's own ids and names) and revived, and the saver
 * stores that. What nodes see during the run is untouched; a run resumed later reads `***`.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { PendingWrite, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { isObject } from "../spec/data.js";
import type { Scrub } from "../spec/secrets.js";

/** The configurable key of a run's Scrub: a function, so it is never serialized or traced. */
export const SCRUB_KEY = "graphspec_scrub";

/** Pending writes to these channels hold LangGraph's own names, never run data. */
const OWN_CHANNELS = new Set([
  "__error_source_node__",
  "__no_writes__",
  "__scheduled__",
  "__snapshot_bumps__",
]);
/** Metadata LangGraph keeps for itself: step numbers, sources, checkpoint ids. */
const OWN_METADATA = new Set([
  "source",
  "step",
  "parents",
  "counters_since_delta_snapshot",
  "delta_writes_versioned",
]);

type Json = unknown;

/**
 * Masks the strings of serialized JSON. LangChain's serialized objects (`lc`) keep their type and
 * id, and only what they were built from (`kwargs`, `args`, a snapshot's `value`) is masked.
 */
function scrubJson(value: Json, scrub: Scrub): Json {
  if (typeof value === "string") return scrub.text(value);
  if (Array.isArray(value)) return value.map((v) => scrubJson(v, scrub));
  if (!isObject(value)) return value;
  if (value.lc === 1 || value.lc === 2) {
    const out = { ...value };
    // A delta channel's snapshot (`lc: 2`, `delta_snapshot`) has only its `value`.
    for (const key of ["kwargs", "args", "value"])
      if (key in out) out[key] = scrubJson(out[key], scrub);
    return out;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubJson(v, scrub)]));
}

/** Masks one channel's value, sparing what LangGraph addresses by (node names, interrupt ids). */
function scrubChannel(channel: string, value: Json, scrub: Scrub): Json {
  if (OWN_CHANNELS.has(channel) || channel.startsWith("branch:")) return value;
  // Interrupts `{ id, value }`; Sends `{ node, args }`: the id and the node stay as they are.
  const field = channel === "__interrupt__" ? "value" : channel === "__pregel_tasks" ? "args" : "";
  if (!field) return scrubJson(value, scrub);
  const one = (v: Json) =>
    isObject(v) && field in v ? { ...v, [field]: scrubJson(v[field], scrub) } : v;
  return Array.isArray(value) ? value.map(one) : one(value);
}

const decoder = new TextDecoder();

/** How a secret appears in JSON text. */
const asJson = (secret: string) => JSON.stringify(secret).slice(1, -1);

/**
 * `values` masked, each by the rules of its channel — or the same object when no secret is in
 * them: one serialization tells, and only values with a secret are rebuilt.
 */
async function scrubValues(
  serde: SerializerProtocol,
  scrub: Scrub,
  values: Record<string, unknown>,
  channelOf: (key: string) => string = (key) => key,
): Promise<Record<string, unknown>> {
  const [type, bytes] = await serde.dumpsTyped(values);
  if (type !== "json") return values;
  const text = typeof bytes === "string" ? bytes : decoder.decode(bytes);
  if (!scrub.secrets.some((s) => text.includes(asJson(s)))) return values;
  const parsed = JSON.parse(text) as Record<string, Json>;
  const masked = Object.fromEntries(
    Object.entries(parsed).map(([k, v]) => [k, scrubChannel(channelOf(k), v, scrub)]),
  );
  return (await serde.loadsTyped("json", JSON.stringify(masked))) as Record<string, unknown>;
}

const scrubOf = (config: { configurable?: Record<string, unknown> }): Scrub | undefined => {
  const scrub = config.configurable?.[SCRUB_KEY];
  return typeof scrub === "function" && (scrub as Scrub).secrets?.length
    ? (scrub as Scrub)
    : undefined;
};

/**
 * Wraps the saver's `put` and `putWrites` to mask the run's secrets; metadata keys in `keep` (the
 * spec's path) are stored as given.
 */
export function guardSecrets(
  saver: BaseCheckpointSaver,
  keep: readonly string[],
): BaseCheckpointSaver {
  const put = saver.put.bind(saver);
  const putWrites = saver.putWrites.bind(saver);
  const spared = new Set([...OWN_METADATA, ...keep]);

  saver.put = async (config, checkpoint, metadata, versions) => {
    const scrub = scrubOf(config);
    if (!scrub) return put(config, checkpoint, metadata, versions);
    const values = await scrubValues(saver.serde, scrub, checkpoint.channel_values);
    const meta = Object.fromEntries(
      Object.entries(metadata).map(([k, v]) => [k, spared.has(k) ? v : scrub(v)]),
    ) as typeof metadata;
    const stored =
      values === checkpoint.channel_values ? checkpoint : { ...checkpoint, channel_values: values };
    return put(config, stored, meta, versions);
  };

  saver.putWrites = async (config, writes, taskId, taskPath) => {
    const scrub = scrubOf(config);
    if (!scrub || !writes.length) return putWrites(config, writes, taskId, taskPath);
    // Keyed by position: one task may write a channel more than once.
    const byIndex = Object.fromEntries(writes.map(([, v], i) => [i, v]));
    const values = await scrubValues(saver.serde, scrub, byIndex, (i) =>
      String(writes[Number(i)]![0]),
    );
    if (values === byIndex) return putWrites(config, writes, taskId, taskPath);
    const masked = writes.map(([c], i): PendingWrite => [c, values[i]]);
    return putWrites(config, masked, taskId, taskPath);
  };
  return saver;
}
