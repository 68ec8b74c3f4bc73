/**
 * How run-time values look to expressions: plain JSON, with chat messages as `Message` records
 * (`type`, `text`, `content`, `tool_calls`, `tool_call_id`, `name`, `id`; docs/spec.md "Types").
 * Message views are made once per message object.
 */
import { type BaseMessage, isAIMessage, isBaseMessage } from "@langchain/core/messages";

const views = new WeakMap<BaseMessage, Record<string, unknown>>();

/** A chat message as expressions see it. */
export function messageView(message: BaseMessage): Record<string, unknown> {
  let view = views.get(message);
  if (!view) {
    const m = message as BaseMessage & { tool_call_id?: string; status?: string };
    view = {
      type: m.getType(),
      text: m.text,
      content: m.content,
      tool_calls: isAIMessage(m)
        ? (m.tool_calls ?? []).map((c) => ({ id: c.id ?? null, name: c.name, args: c.args }))
        : [],
      tool_call_id: m.tool_call_id ?? null,
      status: m.status ?? null,
      name: m.name ?? null,
      id: m.id ?? null,
    };
    views.set(message, view);
  }
  return view;
}

/** A value with every chat message in it (at the top or in a list) replaced by its view. */
export function exprValue(value: unknown): unknown {
  if (isBaseMessage(value)) return messageView(value);
  if (Array.isArray(value) && value.some(isBaseMessage)) {
    return value.map((v) => (isBaseMessage(v) ? messageView(v) : v));
  }
  return value;
}

/** The state as expressions see it: message channels as lists of Message records. */
export function exprState(
  state: Record<string, unknown>,
  messageChannels: readonly string[],
): Record<string, unknown> {
  if (!messageChannels.length) return state;
  const out = { ...state };
  for (const key of messageChannels) if (key in out) out[key] = exprValue(out[key]);
  return out;
}
