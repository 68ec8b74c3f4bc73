/**
 * Which state channels a node writes, and where the spec says so (for positions).
 * Works on data of any shape: a schema-invalid spec yields what can be read from it.
 */
import { isObject } from "../spec/data.js";
import type { Path } from "../spec/source-map.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";

/** Where a write is declared: report at the key (`notes:`) or at the value (`write: notes`). */
export interface WriteSite {
  path: Path;
  at: "key" | "value";
}

export interface NodeWrites {
  /** Channel → where the node's spec writes it (the first place, when several do). */
  channels: Map<string, WriteSite>;
  /** The node may write channels not listed (a function without `writes`, a subgraph without `output`). */
  unknown: boolean;
}

/** Whether the state has a `messages` message channel and none of `written` is a message channel. */
function keepsTranscript(state: unknown, written: NodeWrites): boolean {
  if (!isObject(state)) return false;
  const isMessages = (c: string) =>
    Object.hasOwn(state, c) && isObject(state[c]) && state[c].type === "messages";
  return isMessages("messages") && ![...written.channels.keys()].some(isMessages);
}

/** The channels node `name` writes, including those of its `on_error.write`. */
export function nodeWrites(spec: GraphSpec, name: string): NodeWrites {
  const data: unknown = spec;
  const root = isObject(data) ? data : {};
  const nodes = isObject(root.nodes) ? root.nodes : {};
  const node = Object.hasOwn(nodes, name) ? nodes[name] : undefined;
  const out: NodeWrites = { channels: new Map(), unknown: false };
  if (!isObject(node)) return out;
  const at: Path = ["nodes", name];
  const add = (channel: string, path: Path, where: "key" | "value") => {
    if (!out.channels.has(channel)) out.channels.set(channel, { path, at: where });
  };
  const keysOf = (value: unknown, path: Path) => {
    if (isObject(value)) for (const k of Object.keys(value)) add(k, [...path, k], "key");
  };
  /** `write: channel` (the whole result) or `write: { channel: value, ... }`. */
  const write = (value: unknown, path: Path) => {
    if (typeof value === "string") add(value, path, "value");
    else keysOf(value, path);
  };

  switch (node.kind) {
    case "llm":
    case "agent":
      // Without `write`, the AI message is appended to `messages` when the state has it.
      if (node.write !== undefined) write(node.write, [...at, "write"]);
      else if (isObject(root.state) && Object.hasOwn(root.state, "messages"))
        add("messages", at, "key");
      // An agent with `write` keeps its transcript in `messages` (unless it writes a message channel).
      if (node.kind === "agent" && node.write !== undefined && keepsTranscript(root.state, out))
        add("messages", at, "key");
      break;
    case "tools":
      add("messages", at, "key");
      break;
    case "tool":
    case "interrupt":
      write(node.write, [...at, "write"]);
      break;
    case "set":
      keysOf(node.values, [...at, "values"]);
      break;
    case "subgraph":
      // Without `output`, the keys both graphs share are copied back: not known from this file.
      if (isObject(node.output)) keysOf(node.output, [...at, "output"]);
      else out.unknown = true;
      break;
    case "function":
      if (Array.isArray(node.writes)) {
        for (const [i, c] of node.writes.entries())
          if (typeof c === "string") add(c, [...at, "writes", i], "value");
      } else out.unknown = true;
      break;
  }
  if (isObject(node.on_error)) write(node.on_error.write, [...at, "on_error", "write"]);
  return out;
}
