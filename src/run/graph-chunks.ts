/**
 * LangGraph's own stream output — the chunks of its stream modes (`values`, `updates`,
 * `messages`, `custom`, `debug`, …) and, on request, its raw `streamEvents` — as plain data a
 * caller outside the process may see: messages as `{ type, content, … }`, and a run's
 * `configurable` (which carries graphspec's own keys and the secret masker) cut down to where
 * the thread stands. The server's `streamMode` is built on these (src/server/).
 */
import type { StreamEvent } from "@langchain/core/tracers/log_stream";
import { isObject } from "../spec/data.js";
import { toPlain } from "./serialize.js";

/** LangGraph's stream modes, as `graph.stream({ streamMode })` names them. */
export const GRAPH_STREAM_MODES = [
  "values",
  "updates",
  "messages",
  "custom",
  "debug",
  "tasks",
  "checkpoints",
] as const;
export type GraphStreamMode = (typeof GRAPH_STREAM_MODES)[number];

/** What of a run's LangGraph stream to report besides the run events. */
export interface GraphStreamRequest {
  /** Stream modes whose chunks are reported as `graph_chunk` events. */
  modes?: GraphStreamMode[];
  /** Chunks of subgraphs too, with their namespace. */
  subgraphs?: boolean;
  /** Every raw `streamEvents` (v2) event, as `graph_event` events. */
  events?: boolean;
  /**
   * Of the run's own events, only `node_start` / `node_end` (and the end) are wanted: no `token`,
   * `tool_*`, `custom` or `usage` events (the server's case: it reads the chunks). Then, unless
   * `events` is on or a mode needs LangChain's callbacks (`messages`, `custom`), the graph runs
   * through LangGraph's `stream()` instead of `streamEvents()`, without its tracer — what a
   * hand-written program streaming those modes pays.
   */
  nodeEventsOnly?: boolean;
}

/** Modes `graph.stream()` gives as `streamEvents()` does, with no callbacks of ours. */
const PLAIN_MODES: ReadonlySet<GraphStreamMode> = new Set([
  "values",
  "updates",
  "debug",
  "tasks",
  "checkpoints",
]);

/** Whether a run asked for `request` goes through `graph.stream()` (see `nodeEventsOnly`). */
export const throughStream = (request: GraphStreamRequest | undefined): boolean =>
  !!request?.nodeEventsOnly &&
  !request.events &&
  (request.modes ?? []).every((m) => PLAIN_MODES.has(m));

/** The configurable keys a caller may see: where the thread stands, nothing of graphspec's. */
const SHOWN_CONFIGURABLE = new Set(["thread_id", "checkpoint_ns", "checkpoint_id"]);

/** A `config` (or `parentConfig`) cut down to the thread's position. */
function plainConfig(config: unknown): unknown {
  if (!isObject(config) || !isObject(config.configurable)) return undefined;
  const shown = Object.entries(config.configurable).filter(([k]) => SHOWN_CONFIGURABLE.has(k));
  return { configurable: Object.fromEntries(shown) };
}

/** Metadata LangGraph attaches to events: its own `langgraph_*` keys and tags, never `configurable`'s. */
function plainMetadata(meta: unknown): Record<string, unknown> {
  if (!isObject(meta)) return {};
  return Object.fromEntries(
    Object.entries(meta)
      .filter(([k]) => k.startsWith("langgraph_") || k.startsWith("ls_") || k === "tags")
      .map(([k, v]) => [k, toPlain(v)]),
  );
}

/** Plain data, with every `config` / `parentConfig` / `metadata` object at any depth cut down. */
function clean(value: unknown, depth = 0): unknown {
  if (depth > 64) return null;
  const plain = depth === 0 ? toPlain(value) : value;
  if (Array.isArray(plain)) return plain.map((v) => clean(v, depth + 1));
  if (!isObject(plain)) return plain;
  return Object.fromEntries(
    Object.entries(plain).map(([k, v]) => {
      if (k === "config" || k === "parentConfig" || k === "parent_config")
        return [k, plainConfig(v)];
      if (k === "metadata" && isObject(v) && ("langgraph_node" in v || "configurable" in v))
        return [k, plainMetadata(v)];
      return [k, clean(v, depth + 1)];
    }),
  );
}

/** One chunk of a stream mode as plain data; `messages` chunks are `[message, metadata]`. */
export function plainChunk(mode: string, chunk: unknown): unknown {
  if (mode === "messages" && Array.isArray(chunk)) {
    return [toPlain(chunk[0]), plainMetadata(chunk[1])];
  }
  return clean(chunk);
}

/** A stack's frame line (`    at fn (/path/file.ts:17:23)`), anywhere or (`_AT`) at `lastIndex`. */
const FRAME = /\n\s+at /;
const FRAME_AT = /\n\s+at /y;
/** A stack's heading before the message it repeats (`TypeError: `), at `lastIndex`. */
const ERROR_NAME_AT = /[\w$.]{1,100}: /y;

/**
 * An error as LangChain's tracer writes it into `on_tool_error` (`message`, a blank line, then the
 * error's stack, with the server's file paths): its message only. A client sees what went wrong,
 * never where in the server. The message may hold blank lines of its own: the cut is at the blank
 * line followed by `Name: ` and the same message again, then a frame (how V8 writes a stack);
 * failing that (a stack written otherwise), at the first blank line a frame follows — a message
 * cut short rather than a path shown. Each blank line costs a sticky match, so a long message of
 * many blank lines is not read again for each.
 */
export function withoutStack(error: unknown): unknown {
  if (typeof error !== "string") return error;
  const first = error.indexOf("\n\n");
  if (first < 0 || !FRAME.test(error.slice(first))) return error;
  for (let at = first; at >= 0; at = error.indexOf("\n\n", at + 1)) {
    ERROR_NAME_AT.lastIndex = at + 2;
    if (!ERROR_NAME_AT.test(error)) continue;
    const repeated = ERROR_NAME_AT.lastIndex;
    FRAME_AT.lastIndex = repeated + at;
    if (FRAME_AT.test(error) && error.startsWith(error.slice(0, at), repeated))
      return error.slice(0, at);
  }
  return error.slice(0, first);
}

/** A raw `streamEvents` event as plain data: its metadata cut down, its data made plain. */
export function plainEvent(e: StreamEvent): Record<string, unknown> {
  const data = clean(e.data);
  return {
    event: e.event,
    name: e.name,
    run_id: e.run_id,
    tags: e.tags ?? [],
    metadata: plainMetadata(e.metadata),
    data: isObject(data) && "error" in data ? { ...data, error: withoutStack(data.error) } : data,
  };
}

/**
 * The namespace of the graph a node that wrote with `runtime.writer` runs in, as LangGraph names
 * its `custom` chunks: the event's checkpoint namespace without the node's own task (`[]` for a
 * node of the run's own graph, `["sub:<task>"]` for one inside the subgraph node `sub`).
 */
export function writerNamespace(e: StreamEvent): string[] {
  const meta = (e.metadata ?? {}) as Record<string, unknown>;
  const ns = String(meta.langgraph_checkpoint_ns ?? meta.checkpoint_ns ?? "");
  return ns ? ns.split("|").slice(0, -1) : [];
}
