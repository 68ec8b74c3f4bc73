/**
 * The LangGraph Platform API's `stream_mode`s, built from the executor's events: which of
 * LangGraph's own stream modes to ask the executor for, and how each of its events becomes the
 * server-sent events the official SDK reads (`values`, `updates`, `messages/partial`, `messages`,
 * `custom`, `events`, `debug`, namespaced `mode|ns` with `stream_subgraphs`).
 */
import type { RunEvent } from "../run/events.js";
import type { GraphStreamMode, GraphStreamRequest } from "../run/graph-chunks.js";
import { ApiError } from "./api-error.js";

export const API_STREAM_MODES = [
  "values",
  "updates",
  "messages",
  "messages-tuple",
  "custom",
  "events",
  "debug",
  "tasks",
  "checkpoints",
] as const;
export type ApiStreamMode = (typeof API_STREAM_MODES)[number];

/** One server-sent event: its name and its JSON data. */
export interface SseEvent {
  event: string;
  data: unknown;
}

/** The modes a request asks for (`values` when none), refusing unknown ones. */
export function streamModes(raw: unknown): ApiStreamMode[] {
  const given = raw === undefined || raw === null ? [] : [raw].flat();
  for (const m of given) {
    if (!API_STREAM_MODES.includes(m as ApiStreamMode)) {
      throw new ApiError(422, "invalid-stream-mode", `unknown stream mode ${JSON.stringify(m)}`, {
        field: "stream_mode",
        hint: `use one or more of ${API_STREAM_MODES.join(", ")}`,
      });
    }
  }
  return given.length ? [...new Set(given as ApiStreamMode[])] : ["values"];
}

/** What to ask the executor for, to answer these modes. */
export function graphStreamFor(modes: ApiStreamMode[], subgraphs: boolean): GraphStreamRequest {
  const lib = new Set<GraphStreamMode>();
  for (const m of modes) {
    if (m === "messages-tuple") lib.add("messages");
    else if (m === "messages") lib.add("messages").add("values");
    else if (m !== "events") lib.add(m);
  }
  return { modes: [...lib], subgraphs, events: modes.includes("events") };
}

interface PlainMessage {
  id?: string;
  content?: unknown;
  [key: string]: unknown;
}

/**
 * Turns one run's events into server-sent events for `modes`. Stateful: the legacy `messages`
 * mode sends each message whole so far (`messages/partial`), so tokens are gathered per message.
 */
export function sseMapper(
  modes: ApiStreamMode[],
  subgraphs: boolean,
): (event: RunEvent) => SseEvent[] {
  const wants = new Set(modes);
  const partial = new Map<string, PlainMessage>();
  const complete = new Set<string>();
  const named = (mode: string, ns: string[]) =>
    subgraphs && ns.length ? `${mode}|${ns.join("|")}` : mode;
  return (e) => {
    if (e.type === "graph_event")
      return wants.has("events") ? [{ event: "events", data: e.event }] : [];
    if (e.type !== "graph_chunk") return [];
    const out: SseEvent[] = [];
    if (e.mode === "messages") {
      if (wants.has("messages-tuple"))
        out.push({ event: named("messages", e.namespace), data: e.data });
      if (wants.has("messages")) {
        const [chunk, metadata] = e.data as [PlainMessage, unknown];
        if (chunk?.id) {
          const known = partial.get(chunk.id);
          if (!known) {
            partial.set(chunk.id, { ...chunk });
            out.push({ event: "messages/metadata", data: { [chunk.id]: { metadata } } });
          } else if (typeof known.content === "string" && typeof chunk.content === "string") {
            known.content += chunk.content;
          }
          out.push({ event: "messages/partial", data: [partial.get(chunk.id)] });
        }
      }
      return out;
    }
    if (e.mode === "values" && wants.has("messages")) {
      const messages = (e.data as { messages?: unknown })?.messages;
      const fresh = (Array.isArray(messages) ? (messages as PlainMessage[]) : []).filter(
        (m) => m?.id && !complete.has(m.id),
      );
      for (const m of fresh) complete.add(m.id!);
      if (fresh.length) out.push({ event: "messages/complete", data: fresh });
    }
    if (wants.has(e.mode as ApiStreamMode))
      out.push({ event: named(e.mode, e.namespace), data: e.data });
    return out;
  };
}
