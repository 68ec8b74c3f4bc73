/** A RunResult as plain JSON: chat messages as `{ type, content, … }` rather than LangChain's serialized form. */
import { type BaseMessage, isAIMessage, isBaseMessage } from "@langchain/core/messages";
import { isObject } from "../spec/data.js";

function plainMessage(m: BaseMessage): Record<string, unknown> {
  const out: Record<string, unknown> = { type: m.getType(), content: m.content };
  if (isAIMessage(m) && m.tool_calls?.length)
    out.tool_calls = m.tool_calls.map(({ id, name, args }) => ({ id, name, args }));
  const extra = m as BaseMessage & {
    tool_call_id?: string;
    usage_metadata?: unknown;
    status?: string;
    artifact?: unknown;
  };
  if (extra.tool_call_id) out.tool_call_id = extra.tool_call_id;
  // A failed tool call says so (a denied one carries its `errorCode` in the artifact).
  if (extra.status === "error") out.status = "error";
  if (extra.artifact !== undefined) out.artifact = toPlain(extra.artifact);
  if (m.name) out.name = m.name;
  if (m.id) out.id = m.id;
  if (extra.usage_metadata) out.usage_metadata = extra.usage_metadata;
  // What the call cost, when the provider or a gateway said (compile/models/gateway-cost.ts): of
  // the provider's response metadata, only this is kept.
  const cost = (m.response_metadata as { usage?: { cost?: unknown } } | undefined)?.usage?.cost;
  if (typeof cost === "number") out.response_metadata = { usage: { cost } };
  return out;
}

export function toPlain(value: unknown, depth = 0): unknown {
  if (depth > 64) return null;
  if (isBaseMessage(value)) return plainMessage(value);
  if (Array.isArray(value)) return value.map((v) => toPlain(v, depth + 1));
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlain(v, depth + 1)]));
  return value;
}
