/**
 * A tool's result that is a LangGraph `Command` (a tool that writes the state itself: `new
 * Command({ update, goto })`), as the events stream carries it — the Command's JSON,
 * `{ lg_name: "Command", update, goto, resume }` — read into what a person wants to see:
 * the answer the model gets (the tool message in `update.messages` that answers this call), what
 * it writes to the state, key by key, and where the run goes next. Pure: tested without a browser.
 */
import { isJsonObject } from "../json-object.js";

export interface ToolCommand {
  /** The text of the tool message in `update.messages` (what the model reads back), if any. */
  answer?: string;
  /** The state keys it writes, each with its value (messages as their text, one per line). */
  updates: { key: string; value: unknown }[];
  /** The nodes it sends the run to (`goto`), a Send as `node (with args)`. */
  goto: string[];
  resume?: unknown;
}

/** A message as JSON (`{ type, content }`) or LangChain's serialized form (`{ lc, id, kwargs }`). */
function messageOf(
  v: unknown,
): { type: string; content: unknown; toolCallId?: string } | undefined {
  if (!isJsonObject(v)) return undefined;
  if (v.lc === 1 && Array.isArray(v.id) && isJsonObject(v.kwargs)) {
    const cls = String(v.id.at(-1) ?? "");
    const type = cls.replace(/Message(Chunk)?$/, "").toLowerCase() || "message";
    const id = v.kwargs.tool_call_id;
    return {
      type,
      content: v.kwargs.content,
      ...(typeof id === "string" ? { toolCallId: id } : {}),
    };
  }
  if (typeof v.type === "string" && "content" in v) {
    const id = v.tool_call_id;
    return {
      type: v.type,
      content: v.content,
      ...(typeof id === "string" ? { toolCallId: id } : {}),
    };
  }
  return undefined;
}

/** A message's content as text: a string, or the text parts of a list of content blocks. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((b) =>
        typeof b === "string" ? b : isJsonObject(b) && typeof b.text === "string" ? b.text : "",
      )
      .filter(Boolean)
      .join("\n");
  return JSON.stringify(content);
}

const gotoOf = (g: unknown): string[] =>
  (Array.isArray(g) ? g : g === undefined || g === null ? [] : [g]).map((t) =>
    typeof t === "string"
      ? t
      : isJsonObject(t) && typeof t.node === "string"
        ? `${t.node} (with ${JSON.stringify(t.args ?? null)})`
        : JSON.stringify(t),
  );

/** The Command a tool returned, read; `undefined` when `result` is not one. */
export function toolCommandOf(result: unknown): ToolCommand | undefined {
  if (!isJsonObject(result) || result.lg_name !== "Command") return undefined;
  const updates: ToolCommand["updates"] = [];
  let answer: string | undefined;
  const update = result.update;
  const entries: [string, unknown][] = isJsonObject(update)
    ? Object.entries(update)
    : Array.isArray(update) && update.every((t) => Array.isArray(t) && typeof t[0] === "string")
      ? (update as [string, unknown][])
      : update === undefined || update === null
        ? []
        : [["(the whole state)", update]];
  for (const [key, value] of entries) {
    const messages = Array.isArray(value) ? value.map(messageOf) : [];
    if (messages.length && messages.every((m) => m !== undefined)) {
      const tool = messages.find((m) => m!.type === "tool");
      if (tool && answer === undefined) answer = contentText(tool.content);
      updates.push({
        key,
        value: messages.map((m) => `${m!.type}: ${contentText(m!.content)}`).join("\n"),
      });
    } else updates.push({ key, value });
  }
  return {
    ...(answer !== undefined ? { answer } : {}),
    updates,
    goto: gotoOf(result.goto),
    ...(result.resume !== undefined ? { resume: result.resume } : {}),
  };
}
