/**
 * The state bound (checkpoint-bounds.ts) measures what a step stores by serializing it, and the
 * saver then serialized the same values again to store them: for a 16 MiB state, measuring was
 * most of the time a step spent serializing. Here the saver's serializer reuses the bytes the
 * measure made, so each value is serialized once:
 *
 * - a write's value (an object) measured is stored from the measured bytes;
 * - a checkpoint whose `channel_values` were measured is serialized without them and the measured
 *   bytes are spliced in where they go — for savers that store the checkpoint whole (SQLite,
 *   memory), only while its values are still the measured ones (not, for example, masked copies).
 *
 * The stored bytes are the same as the serializer's own: JSON serialization of an object is the
 * serialization of its fields in place (the serializer's replacer does not look at keys).
 */
import { type BaseCheckpointSaver, type Checkpoint, MemorySaver } from "@langchain/langgraph";

type Dumped = [string, Uint8Array];

/** The placeholder a checkpoint's values are serialized as, then replaced by their bytes. */
const MARK = "graphspec:measured-channel-values";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface SerializeOnce {
  /** Bytes `value` serializes to; an object's bytes are kept for the saver to store. */
  size(value: unknown): Promise<number>;
  /** Bytes the checkpoint's values serialize to, kept for the saver while `stored` runs. */
  stateSize(checkpoint: Checkpoint): Promise<number>;
  /** Forgets the checkpoint's measured bytes (stored, or refused). */
  forget(checkpoint: Checkpoint): void;
}

/** Whether the saver serializes a checkpoint whole, values included (one row per checkpoint). */
export const storesWhole = (saver: BaseCheckpointSaver): boolean =>
  saver instanceof MemorySaver || saver.constructor.name === "SqliteSaver";

export function serializeOnce(saver: BaseCheckpointSaver): SerializeOnce {
  const serde = saver.serde;
  const dumps = serde.dumpsTyped.bind(serde) as (value: unknown) => Promise<Dumped>;
  const values = new WeakMap<object, Dumped>();
  const states = new Map<string, { values: Record<string, unknown>; dumped: Dumped }>();
  const whole = storesWhole(saver);

  serde.dumpsTyped = async (obj: unknown) => {
    if (obj === null || typeof obj !== "object") return dumps(obj);
    const kept = values.get(obj);
    if (kept) {
      values.delete(obj);
      return kept;
    }
    const state = whole ? states.get((obj as { id?: unknown }).id as string) : undefined;
    const cp = obj as Partial<Checkpoint>;
    if (state && cp.channel_values && sameValues(cp.channel_values, state.values))
      return splice(cp, state.dumped);
    return dumps(obj);
  };

  const splice = async (cp: Partial<Checkpoint>, [type, bytes]: Dumped): Promise<Dumped> => {
    const [skelType, skel] = await dumps({ ...cp, channel_values: MARK });
    const text = typeof skel === "string" ? skel : decoder.decode(skel);
    const field = `"channel_values":${JSON.stringify(MARK)}`;
    const at = text.indexOf(field);
    if (type !== "json" || skelType !== "json" || at < 0) return dumps(cp);
    const head = encoder.encode(text.slice(0, at + '"channel_values":'.length));
    const tail = encoder.encode(text.slice(at + field.length));
    const out = new Uint8Array(head.length + bytes.length + tail.length);
    out.set(head);
    out.set(bytes, head.length);
    out.set(tail, head.length + bytes.length);
    return ["json", out];
  };

  return {
    async size(value) {
      const dumped = await dumps(value);
      if (value !== null && typeof value === "object") values.set(value, dumped);
      return dumped[1].length;
    },
    async stateSize(checkpoint) {
      const dumped = await dumps(checkpoint.channel_values);
      if (whole) states.set(checkpoint.id, { values: checkpoint.channel_values, dumped });
      return dumped[1].length;
    },
    forget(checkpoint) {
      states.delete(checkpoint.id);
    },
  };
}

/** The same keys with the same values (a shallow copy of the measured ones). */
function sameValues(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}
