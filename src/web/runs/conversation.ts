/**
 * The Messages panel's conversation once a run has ended, live or reopened: the thread's `messages`
 * channel as its state keeps it — the person's messages, each model's answers with the tool calls
 * they asked for, the tools' messages — with the text streamed by models whose answers the channel
 * does not keep (a node writing its text to another channel) where it came. A stream alone shows
 * only what models said, and a replayed one not even the person's messages: the state is the
 * conversation's truth. Pure, so it is tested without a browser.
 */

import { isJsonObject, type JsonObject } from "../json-object.js";
import { type StreamedMessage, textOf } from "./run-progress.js";

/** Who a state message is from, as the panel names roles (`human`, `ai`, `tool`, `system`). */
function roleOf(m: JsonObject): StreamedMessage["role"] {
  const r = String(m.type ?? m.role ?? "");
  if (r === "human" || r === "user") return "human";
  if (r === "ai" || r === "assistant") return "ai";
  if (r === "tool") return "tool";
  if (r === "system") return "system";
  return undefined;
}

/** The state's messages as the panel's lines, named as the stream named them where it did. */
function linesOfState(list: unknown[], streamed: StreamedMessage[]): StreamedMessage[] {
  const byId = new Map(streamed.map((m) => [m.id, m]));
  const lines: StreamedMessage[] = [];
  for (const [i, raw] of list.entries()) {
    if (!isJsonObject(raw)) continue;
    const role = roleOf(raw);
    if (!role) continue;
    const id = typeof raw.id === "string" && raw.id ? raw.id : `state-${i}`;
    const calls = Array.isArray(raw.tool_calls) ? raw.tool_calls.filter(isJsonObject) : [];
    const text = textOf(raw.content);
    const line: StreamedMessage = {
      id,
      role,
      node:
        role === "human"
          ? "you"
          : role === "tool"
            ? typeof raw.name === "string"
              ? raw.name
              : "tool"
            : (byId.get(id)?.node ?? (typeof raw.name === "string" ? raw.name : "")),
      text,
    };
    if (calls.length)
      line.toolCalls = calls.map((c) => ({ name: String(c.name ?? "tool"), args: c.args ?? {} }));
    if (role === "tool" && raw.status === "error") line.failed = true;
    lines.push(line);
  }
  return lines;
}

/**
 * `streamed`, the run's messages as streamed (or replayed), merged into the conversation in
 * `values.messages`; `streamed` itself when the state has no list of messages.
 */
export function conversationOf(values: unknown, streamed: StreamedMessage[]): StreamedMessage[] {
  const list = isJsonObject(values) && Array.isArray(values.messages) ? values.messages : undefined;
  if (!list?.length) return streamed;
  const out = linesOfState(list, streamed);
  if (!out.length) return streamed;
  // A streamed message is in the conversation by its id, or (a provider that ids its chunks
  // apart from the message kept) as the same model text; the person's typed one as their text.
  const inConversation = (m: StreamedMessage) =>
    out.findIndex(
      (l) =>
        l.id === m.id ||
        (m.text !== "" &&
          l.text === m.text &&
          (l.role === "ai" || (l.role === "human" && m.id.startsWith("said-")))),
    );
  let at = -1;
  for (const m of streamed) {
    const i = inConversation(m);
    if (i >= 0) {
      at = i;
      continue;
    }
    // The person's message the state does not keep is still theirs; a model's text where it came.
    out.splice(at + 1, 0, m);
    at += 1;
  }
  return out;
}
