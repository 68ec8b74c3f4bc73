/**
 * Messages in a state, as a transcript: a channel whose value is a list of chat messages (the
 * server's plain form, `{ type, content, … }`, or `{ role, content }`) reads better as who said what
 * than as a JSON tree.
 */

export interface TranscriptLine {
  /** `human`, `ai`, `tool`, `system`, … */
  role: string;
  text: string;
  /** The tool calls an AI message asked for, by name with their arguments. */
  toolCalls: { name: string; args: unknown }[];
  /** A tool message's tool. */
  tool?: string;
  /** A tool message with `status: "error"`: the tool failed (or was refused), and the model was told so. */
  failed?: true;
}

type Plain = Record<string, unknown>;
const isObject = (v: unknown): v is Plain => typeof v === "object" && v !== null;

/** The message's text: a string, or the text parts of a list of content blocks. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((part) =>
        typeof part === "string" ? part : isObject(part) ? String(part.text ?? "") : "",
      )
      .join("");
  return content === undefined || content === null ? "" : JSON.stringify(content);
}

/** A message as serialized by LangChain (`{ lc, type: "constructor", kwargs }`) or plain. */
function plainOf(m: Plain): Plain {
  return m.lc !== undefined && isObject(m.kwargs) ? { ...m.kwargs, type: roleOfId(m.id) } : m;
}
const roleOfId = (id: unknown) => {
  const name = Array.isArray(id) ? String(id.at(-1) ?? "") : "";
  return name.replace(/Message(Chunk)?$/, "").toLowerCase() || "message";
};

/** The transcript of `value` when it is a non-empty list of messages; undefined otherwise. */
export function transcriptOf(value: unknown): TranscriptLine[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const lines: TranscriptLine[] = [];
  for (const raw of value) {
    if (!isObject(raw)) return undefined;
    const m = plainOf(raw);
    const role = m.type ?? m.role;
    if (typeof role !== "string" || !("content" in m)) return undefined;
    const calls = Array.isArray(m.tool_calls) ? m.tool_calls.filter(isObject) : [];
    lines.push({
      role,
      text: textOf(m.content),
      toolCalls: calls.map((c) => ({ name: String(c.name ?? "?"), args: c.args })),
      ...(typeof m.name === "string" && role === "tool" ? { tool: m.name } : {}),
      ...(role === "tool" && m.status === "error" ? { failed: true as const } : {}),
    });
  }
  return lines;
}
