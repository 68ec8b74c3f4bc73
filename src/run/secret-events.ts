/**
 * A run's events with its secrets masked. Streamed tokens need care: a model streams text in
 * pieces, so a secret can arrive split over several tokens, and no single piece holds it. Each
 * node's text is held back from the point where it could be the start of a secret, until the
 * next token shows whether it is one (masked) or not (let through); the node's end, or the
 * run's, lets the rest through. LangGraph's `messages` chunks (per message) and raw
 * `on_chat_model_stream` events (per model call, until its `on_chat_model_end`) are held back
 * the same way: a client that joins them, or a server that joins them for it, never gets a
 * secret from pieces each masked alone.
 */
import type { Scrub } from "../spec/secrets.js";
import type { RunEvent } from "./events.js";

export interface EventSink {
  (event: RunEvent): void;
  /** Lets held-back text through (the run has ended). */
  flush(): void;
}

/** The length of the longest end of `text` that is the start of a secret (but not all of it). */
function heldLength(text: string, secrets: readonly string[]): number {
  let held = 0;
  for (const secret of secrets) {
    for (let n = Math.min(secret.length - 1, text.length); n > held; n--) {
      if (text.endsWith(secret.slice(0, n))) {
        held = n;
        break;
      }
    }
  }
  return held;
}

/** The event with what the run produced masked: never node and tool names, nor ids. */
function scrubEvent(event: RunEvent, scrub: Scrub): RunEvent {
  switch (event.type) {
    case "tool_call":
    case "tool_denied":
      return { ...event, args: scrub(event.args) };
    case "tool_result":
      return { ...event, output: scrub(event.output) };
    case "interrupt":
      return { ...event, value: scrub(event.value) };
    case "custom":
    case "graph_chunk":
      return { ...event, data: scrub(event.data) };
    case "graph_event":
      return { ...event, event: scrub(event.event) };
    default:
      // The final events' result is masked already (the executor's).
      return event;
  }
}

/**
 * Streamed text held back per stream (a node's tokens, a message's chunks, a model call's
 * `on_chat_model_stream` events) from where it could be the start of a secret.
 */
class HeldText {
  private readonly held = new Map<string, string>();
  constructor(private readonly scrub: Scrub) {}

  /** The text that may be let through now, once `piece` is added to what the stream held. */
  push(key: string, piece: string): string {
    // Masking first: what is let through never ends in a part of a secret.
    const text = this.scrub.text((this.held.get(key) ?? "") + piece);
    const keep = heldLength(text, this.scrub.secrets);
    this.held.set(key, text.slice(text.length - keep));
    return text.slice(0, text.length - keep);
  }

  /** What the stream still holds (it has ended), forgotten. */
  take(key: string): string {
    const text = this.held.get(key) ?? "";
    this.held.delete(key);
    return text;
  }

  keys(): string[] {
    return [...this.held.keys()];
  }
}

type Plain = Record<string, unknown>;
const isPlainObject = (v: unknown): v is Plain =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `emit` with every event masked by `scrub`; `emit` itself when there is nothing to mask. */
export function scrubbedEvents(emit: (event: RunEvent) => void, scrub: Scrub): EventSink {
  if (!scrub.secrets.length) return Object.assign((e: RunEvent) => emit(e), { flush() {} });
  const tokens = new HeldText(scrub);
  const release = (node: string) => {
    const text = tokens.take(node);
    if (text) emit({ type: "token", node, text });
  };
  // LangGraph's `messages` chunks ([message, metadata]), by message id: the last one seen, so
  // what is held can be let through as one more chunk of that message.
  const messages = new HeldText(scrub);
  const lastChunk = new Map<
    string,
    { message: Plain; metadata: unknown; node: unknown; namespace: string[] }
  >();
  const releaseMessage = (id: string) => {
    const text = messages.take(id);
    const last = lastChunk.get(id);
    lastChunk.delete(id);
    if (text && last)
      emit({
        type: "graph_chunk",
        mode: "messages",
        namespace: last.namespace,
        data: [{ ...last.message, content: text }, last.metadata],
      });
  };
  // Raw `on_chat_model_stream` events, by the model call's run id.
  const modelCalls = new HeldText(scrub);
  const lastModelEvent = new Map<string, Plain>();
  const releaseModelCall = (runId: string) => {
    const text = modelCalls.take(runId);
    const last = lastModelEvent.get(runId);
    lastModelEvent.delete(runId);
    if (text && last) {
      const data = last.data as Plain;
      emit({
        type: "graph_event",
        event: { ...last, data: { ...data, chunk: { ...(data.chunk as Plain), content: text } } },
      });
    }
  };

  /** A `messages` chunk with string content: its text held back like tokens. */
  const messageChunk = (event: RunEvent & { type: "graph_chunk" }): boolean => {
    const [message, metadata] = Array.isArray(event.data) ? event.data : [];
    if (!isPlainObject(message) || typeof message.content !== "string") return false;
    if (typeof message.id !== "string") return false;
    const id = message.id;
    const masked = scrub(message);
    const maskedMeta = scrub(metadata);
    const node = isPlainObject(metadata) ? metadata.langgraph_node : undefined;
    lastChunk.set(id, { message: masked, metadata: maskedMeta, node, namespace: event.namespace });
    const out = messages.push(id, message.content);
    emit({ ...event, data: [{ ...masked, content: out }, maskedMeta] });
    return true;
  };

  /** A raw model-stream event with string content: held back per model call. */
  const modelEvent = (event: RunEvent & { type: "graph_event" }): boolean => {
    const e = event.event;
    const runId = typeof e.run_id === "string" ? e.run_id : undefined;
    if (!runId) return false;
    if (e.event === "on_chat_model_end") {
      releaseModelCall(runId);
      return false;
    }
    const chunk = isPlainObject(e.data) ? e.data.chunk : undefined;
    if (e.event !== "on_chat_model_stream" || !isPlainObject(chunk)) return false;
    if (typeof chunk.content !== "string") return false;
    const masked = scrub(e);
    lastModelEvent.set(runId, masked);
    const out = modelCalls.push(runId, chunk.content);
    const data = masked.data as Plain;
    emit({
      ...event,
      event: { ...masked, data: { ...data, chunk: { ...(data.chunk as Plain), content: out } } },
    });
    return true;
  };

  const sink = (event: RunEvent) => {
    if (event.type === "token") {
      const out = tokens.push(event.node, event.text);
      if (out) emit({ ...event, text: out });
      return;
    }
    if (event.type === "graph_chunk" && event.mode === "messages" && messageChunk(event)) return;
    if (event.type === "graph_event" && modelEvent(event)) return;
    // Only the node's own end: another node's events say nothing of where this text goes on.
    if (event.type === "node_end") {
      release(event.node);
      for (const [id, last] of lastChunk) if (last.node === event.node) releaseMessage(id);
    }
    emit(scrubEvent(event, scrub));
  };
  return Object.assign(sink, {
    flush() {
      for (const node of tokens.keys()) release(node);
      for (const id of messages.keys()) releaseMessage(id);
      for (const runId of modelCalls.keys()) releaseModelCall(runId);
    },
  });
}
