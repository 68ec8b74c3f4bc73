/**
 * Message records (how expressions see chat messages: src/compile/expr-view.ts) back into chat
 * messages. A record whose `id` is a message the node knows — one in the state, or the answer it
 * just got — becomes that very message, so its usage, tool calls and metadata survive a trip
 * through an expression; any other record, `{ role, content }` map or string becomes a new one.
 */
import {
  AIMessage,
  type BaseMessage,
  coerceMessageLikeToMessage,
  HumanMessage,
  isBaseMessage,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import { isObject } from "../../spec/data.js";

/** Messages by id, from message lists (state channels, an answer). */
export function messagesById(lists: readonly unknown[]): Map<string, BaseMessage> {
  const known = new Map<string, BaseMessage>();
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const m of list) if (isBaseMessage(m) && typeof m.id === "string") known.set(m.id, m);
  }
  return known;
}

const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** A record of a message nobody knows: a new message of its type. */
function fromRecord(value: Record<string, unknown>): BaseMessage | undefined {
  const content = (value.content ?? value.text ?? "") as string;
  const id = text(value.id);
  const name = text(value.name);
  const fields = { content, ...(id ? { id } : {}), ...(name ? { name } : {}) };
  switch (value.type) {
    case "human":
      return new HumanMessage(fields);
    case "system":
      return new SystemMessage(fields);
    case "ai": {
      const calls = Array.isArray(value.tool_calls) ? value.tool_calls : [];
      return new AIMessage({
        ...fields,
        tool_calls: calls.filter(isObject).map((c) => ({
          name: String(c.name),
          args: isObject(c.args) ? c.args : {},
          ...(text(c.id) ? { id: text(c.id) } : {}),
          type: "tool_call" as const,
        })),
      });
    }
    case "tool":
      return new ToolMessage({
        ...fields,
        tool_call_id: String(value.tool_call_id ?? ""),
        // A failed call stays failed: the model reads it as one.
        ...(value.status === "error" || value.status === "success" ? { status: value.status } : {}),
      });
  }
  return undefined;
}

/** A message, a Message record, a `{ role, content }` map or a string as a chat message; undefined when it is none of these. */
export function toChatMessage(
  value: unknown,
  known: ReadonlyMap<string, BaseMessage>,
): BaseMessage | undefined {
  if (isBaseMessage(value)) return value;
  if (isObject(value) && typeof value.type === "string") {
    const same = typeof value.id === "string" ? known.get(value.id) : undefined;
    if (same && same.getType() === value.type) return same;
    const made = fromRecord(value);
    if (made) return made;
  }
  try {
    return coerceMessageLikeToMessage(value as never);
  } catch {
    return undefined;
  }
}

/**
 * A value written to a message channel with records of known messages swapped for the messages
 * themselves (a `write` map's `${{ output }}` keeps the answer's usage and tool calls).
 */
export function restoreMessages(value: unknown, known: ReadonlyMap<string, BaseMessage>): unknown {
  const restore = (v: unknown) =>
    isObject(v) && typeof v.type === "string" && typeof v.id === "string"
      ? (toChatMessage(v, known) ?? v)
      : v;
  return Array.isArray(value) ? value.map(restore) : restore(value);
}
