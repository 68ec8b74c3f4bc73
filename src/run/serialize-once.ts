/**
 * The state bound (checkpoint-bounds.ts) measures what a step stores by serializing it, and the
 * saver then serialized the same values again to store them: for a 16 MiB state, measuring was
 * most of the time a step spent serializing. Here the saver's serializer reuses the bytes the
 * measure made, so each value is serialized once:
 *
 * - a write's value (an object) measured is stored from the measured bytes;
 * - a checkpoint whose `channel_values` were measured (from 8 KiB) is serialized without them and the measured
 *   bytes are spliced in where they go — for savers that store the checkpoint whole (SQLite,
 *   memory), only while its values are still the measured ones (not, for example, masked copies).
 *
 * The stored bytes are the same as the serializer's own: JSON serialization of an object is the
 * serialization of its fields in place (the serializer's replacer does not look at keys).
 */
import { type BaseCheckpointSaver, type Checkpoint, MemorySaver } from "@langchain/langgraph";
import { isPlainJson } from "./plain-serde.js";
import { isSaverKind } from "./saver-kind.js";

type Dumped = [string, Uint8Array];

/**
 * Values smaller than this are serialized again with their checkpoint rather than spliced in:
 * splicing (a copy of the checkpoint without them, written, cut and joined) cost more than
 * writing a few KiB twice — 18 µs a checkpoint of a two-field state, a third of the bounds' time.
 */
const SPLICE_FROM = 8 * 1024;

/** The placeholder a checkpoint's values are serialized as, then replaced by their bytes. */
const MARK = "graphspec:measured-channel-values";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface SerializeOnce {
  /**
   * Bytes `value` serializes to; an object's bytes are kept for the saver to store. `plain`: the
   * caller found it plain JSON (least-json-bytes.ts's `measureJson`), so it is not walked again.
   */
  size(value: unknown, plain?: boolean): Promise<number>;
  /** Bytes the checkpoint's values serialize to, kept for the saver while `stored` runs. */
  stateSize(checkpoint: Checkpoint, plain?: boolean): Promise<number>;
  /** Forgets the checkpoint's measured bytes (stored, or refused). */
  forget(checkpoint: Checkpoint): void;
}

/** Whether the saver serializes a checkpoint whole, values included (one row per checkpoint). */
export const storesWhole = (saver: BaseCheckpointSaver): boolean =>
  saver instanceof MemorySaver || isSaverKind(saver, "SqliteSaver");

/**
 * `plainText`: the saver's serializer writes plain JSON as JSON.stringify does (plain-serde.ts), so
 * a value known plain is written here the same way without its walk, and a checkpoint's small
 * rest (ids, versions) is spliced as text, not encoded, decoded and encoded again.
 */
export function serializeOnce(saver: BaseCheckpointSaver, plainText = false): SerializeOnce {
  const serde = saver.serde;
  const serdeDumps = serde.dumpsTyped.bind(serde) as (value: unknown) => Promise<Dumped>;
  const dumps = (value: unknown, plain = false): Dumped | Promise<Dumped> =>
    plain && plainText ? ["json", encoder.encode(JSON.stringify(value))] : serdeDumps(value);
  const values = new WeakMap<object, Dumped>();
  const states = new Map<string, { values: Record<string, unknown>; dumped: Dumped }>();
  const whole = storesWhole(saver);

  serde.dumpsTyped = async (obj: unknown) => {
    if (obj === null || typeof obj !== "object") return serdeDumps(obj);
    const kept = values.get(obj);
    if (kept) {
      values.delete(obj);
      return kept;
    }
    const state = whole ? states.get((obj as { id?: unknown }).id as string) : undefined;
    const cp = obj as Partial<Checkpoint>;
    if (state && cp.channel_values && sameValues(cp.channel_values, state.values))
      return splice(cp, state.dumped);
    return serdeDumps(obj);
  };

  const splice = async (cp: Partial<Checkpoint>, [type, bytes]: Dumped): Promise<Dumped> => {
    const rest = { ...cp, channel_values: MARK };
    const [skelType, text] =
      plainText && isPlainJson(rest)
        ? ["json", JSON.stringify(rest)]
        : await serdeDumps(rest).then(
            ([t, skel]) => [t, typeof skel === "string" ? skel : decoder.decode(skel)] as const,
          );
    const field = `"channel_values":${JSON.stringify(MARK)}`;
    const at = text.indexOf(field);
    if (type !== "json" || skelType !== "json" || at < 0) return serdeDumps(cp);
    const head = encoder.encode(text.slice(0, at + '"channel_values":'.length));
    const tail = encoder.encode(text.slice(at + field.length));
    const out = new Uint8Array(head.length + bytes.length + tail.length);
    out.set(head);
    out.set(bytes, head.length);
    out.set(tail, head.length + bytes.length);
    return ["json", out];
  };

  return {
    async size(value, plain) {
      const dumped = await dumps(value, plain);
      if (value !== null && typeof value === "object") values.set(value, dumped);
      return dumped[1].length;
    },
    async stateSize(checkpoint, plain) {
      const dumped = await dumps(checkpoint.channel_values, plain);
      if (whole && dumped[1].length >= SPLICE_FROM)
        states.set(checkpoint.id, { values: checkpoint.channel_values, dumped });
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
