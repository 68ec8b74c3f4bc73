/**
 * A run's events with its secrets masked. Streamed tokens need care: a model streams text in
 * pieces, so a secret can arrive split over several tokens, and no single piece holds it. Each
 * node's text is held back from the point where it could be the start of a secret, until the
 * next token shows whether it is one (masked) or not (let through); the node's end, or the
 * run's, lets the rest through.
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
      return { ...event, args: scrub(event.args) };
    case "tool_result":
      return { ...event, output: scrub(event.output) };
    case "interrupt":
      return { ...event, value: scrub(event.value) };
    case "graph_chunk":
      return { ...event, data: scrub(event.data) };
    case "graph_event":
      return { ...event, event: scrub(event.event) };
    default:
      // The final events' result is masked already (the executor's).
      return event;
  }
}

/** `emit` with every event masked by `scrub`; `emit` itself when there is nothing to mask. */
export function scrubbedEvents(emit: (event: RunEvent) => void, scrub: Scrub): EventSink {
  if (!scrub.secrets.length) return Object.assign((e: RunEvent) => emit(e), { flush() {} });
  /** Text not yet let through, by node. */
  const held = new Map<string, string>();
  const release = (node: string) => {
    const text = held.get(node);
    held.delete(node);
    if (text) emit({ type: "token", node, text });
  };
  const sink = (event: RunEvent) => {
    if (event.type !== "token") {
      // Only the node's own end: another node's events say nothing of where this text goes on.
      if (event.type === "node_end") release(event.node);
      emit(scrubEvent(event, scrub));
      return;
    }
    // Masking first: what is let through never ends in a part of a secret.
    const text = scrub.text((held.get(event.node) ?? "") + event.text);
    const keep = heldLength(text, scrub.secrets);
    held.set(event.node, text.slice(text.length - keep));
    const out = text.slice(0, text.length - keep);
    if (out) emit({ ...event, text: out });
  };
  return Object.assign(sink, {
    flush() {
      for (const node of [...held.keys()]) release(node);
    },
  });
}
