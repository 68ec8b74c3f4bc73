/**
 * cel-js names a type in its messages by the name it is registered under: graphspec's records
 * by their place (`State.m`, `State.items[]`), timestamps and durations by their protobuf names.
 * Users declared none of those names: in a message each reads as graphspec writes types
 * (`{a: string}`, `timestamp`).
 */
import { formatType, type RecordType } from "./types.js";

const PROTOBUF: Record<string, string> = {
  "google.protobuf.Timestamp": "timestamp",
  "google.protobuf.Duration": "duration",
};

/** `text` (a cel-js message or signature) with every type name in it as users read types. */
export function readableTypes(text: string, records: ReadonlyMap<string, RecordType>): string {
  const shown = new Map<string, string>(Object.entries(PROTOBUF));
  for (const [name, record] of records) shown.set(name, formatType(record));
  // Longest first: `State.m` before `State`, `Output_2` before `Output`. A name is never part of
  // another word in cel-js's messages, but it may be a method's receiver: in `State.m.size()`,
  // `State.m.size` is a record only when not called.
  const names = [...shown.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(`(?:${names.join("|")})(?!\\()`, "g");
  return text.replace(pattern, (name) => shown.get(name) as string);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
