/**
 * A run as the page shows it, folded from the server-sent events of `client.runs.stream` with
 * `RUN_STREAM_MODES` and `streamSubgraphs: true`: which nodes started and finished, the text
 * each node streamed, the tools called (with the arguments they got after binding) and their
 * results, and the tokens used. Pure, so it is tested without a browser or a server.
 */
import { isJsonObject, type JsonObject } from "../json-object.js";
/** A node's status as GraphDrawing shows it (kept here so this file needs no JSX to type-check). */
export type NodeStatus = "idle" | "running" | "done" | "interrupted" | "error";

/**
 * - `tasks`: a node's start (`input`) and finish (`result`, `error`, `interrupts`);
 * - `messages-tuple`: each model's tokens (and whole tool messages) with the node that sent them;
 * - `events`: `on_tool_start` has the arguments the tool got after binding, `on_tool_end` its result.
 * `streamSubgraphs` so an agent's tokens (its loop is a subgraph) stream too.
 */
export const RUN_STREAM_MODES = ["tasks", "messages-tuple", "events"] as const;

/** `cancelled`: stopped on request (`runs.cancel`): the stream's `error` with code `cancelled`. */
export type RunStatus = "running" | "interrupted" | "success" | "error" | "cancelled";

export interface StreamedMessage {
  id: string;
  /** The graph's node that sent it (an agent's loop counts as its node); a tool's name; `you`. */
  node: string;
  text: string;
  /** Who it is from, once read from the thread's messages (conversation.ts); streamed: a model. */
  role?: "human" | "ai" | "tool" | "system" | undefined;
  /** The tools a model's message asked for, with their arguments as the model wrote them. */
  toolCalls?: { name: string; args: unknown }[];
  /** A tool's message that says the call failed (`status: "error"`). */
  failed?: boolean;
}

export interface ToolCall {
  /** The tool run's id (the event's `run_id`). */
  id: string;
  name: string;
  node: string;
  /** What the tool got, after the spec's `bind` filled its bound arguments. */
  args: unknown;
  /** The tool's answer (its tool message's content), once it finished. */
  result?: unknown;
  failed?: boolean;
}

export interface Usage {
  input: number;
  output: number;
  total: number;
}

export interface ModelUsage extends Usage {
  /** The model as the provider names it (`ls_model_name`), when the stream says. */
  model: string | undefined;
  /** USD, when the provider or a gateway said what the call cost (`response_metadata.usage.cost`). */
  cost?: number;
}

/** The cost a message's `response_metadata` gives (graphspec keeps a gateway's there). */
function costIn(meta: unknown): number | undefined {
  const usage = isJsonObject(meta) ? meta.usage : undefined;
  const cost = isJsonObject(usage) ? usage.cost : undefined;
  return typeof cost === "number" && Number.isFinite(cost) ? cost : undefined;
}

export interface RunProgress {
  status: RunStatus | undefined;
  nodes: Record<string, NodeStatus>;
  messages: StreamedMessage[];
  toolCalls: ToolCall[];
  usage: Usage;
  /** Usage per model message, so the cost can be priced per model. */
  usageByMessage: Record<string, ModelUsage>;
  /**
   * The messages whose usage came whole, from the model's finished message: a streamed chunk of
   * theirs arriving later (OpenAI's usage is in its last chunk, which the stream may deliver after
   * `on_chat_model_end`) is already counted.
   */
  usageFinished: Record<string, true>;
  runId: string | undefined;
  error: string | undefined;
  /** What the server said besides the failure's message: its code (docs/errors.md) and hint. */
  errorDetail: ErrorDetail | undefined;
  /**
   * Each of the graph's own tasks' input, by task id, from its `tasks` start event: a `map` run's
   * is the state with its `with` channels set, which the thread's history does not keep.
   */
  taskInputs: Record<string, unknown>;
}

/** A failed run's code, fix hint and node, as the stream's `error` event gives them. */
export interface ErrorDetail {
  code?: string;
  hint?: string;
  node?: string;
}

const nonEmpty = (v: unknown) => (typeof v === "string" && v ? v : undefined);

/** The code, hint and node of an error as the server sends it (`{ error, message, hint?, node? }`). */
export function errorDetailOf(data: unknown): ErrorDetail {
  if (!isJsonObject(data)) return {};
  const detail: ErrorDetail = {};
  const code = nonEmpty(data.error);
  const hint = nonEmpty(data.hint);
  const node = nonEmpty(data.node);
  if (code) detail.code = code;
  if (hint) detail.hint = hint;
  if (node) detail.node = node;
  return detail;
}

export const emptyProgress = (): RunProgress => ({
  status: undefined,
  nodes: {},
  messages: [],
  toolCalls: [],
  usage: { input: 0, output: 0, total: 0 },
  usageByMessage: {},
  usageFinished: {},
  runId: undefined,
  error: undefined,
  errorDetail: undefined,
  taskInputs: {},
});

/** A new run (or a resume) on the same page: what the last one showed stays, its status is reset. */
export const startedProgress = (p: RunProgress): RunProgress => ({
  ...p,
  status: "running",
  error: undefined,
  errorDetail: undefined,
  nodes: Object.fromEntries(
    Object.entries(p.nodes).filter(([, s]) => s !== "interrupted" && s !== "running"),
  ),
});

/** The graph's node a namespace (`node:taskid|inner:taskid`) or event metadata belongs to. */
function topNode(namespace: string[], metadata: unknown): string {
  const first =
    namespace[0] ?? (isJsonObject(metadata) ? String(metadata.langgraph_checkpoint_ns ?? "") : "");
  const top = first.split("|")[0]!.split(":")[0]!;
  if (top) return top;
  return isJsonObject(metadata) && typeof metadata.langgraph_node === "string"
    ? metadata.langgraph_node
    : "";
}

/** A message's text: its string content, or the text blocks of a list of content blocks. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map((b) =>
        isJsonObject(b) && b.type === "text" && typeof b.text === "string" ? b.text : "",
      )
      .join("");
  return "";
}

const sum = (a: number, b: unknown) => a + (typeof b === "number" && Number.isFinite(b) ? b : 0);

/**
 * A task's node as the drawing names it: `node` for the graph's own, `parent:node` for a node of a
 * subgraph (the xray drawing's ids), from the event's namespace (`parent:<task id>|…`).
 */
function onTask(p: RunProgress, data: unknown, namespace: string[] = []): RunProgress {
  if (!isJsonObject(data) || typeof data.name !== "string") return p;
  const name = [...namespace.map((ns) => ns.split(":")[0]), data.name].join(":");
  let status: NodeStatus;
  if ("input" in data && !("result" in data) && !("error" in data)) status = "running";
  else if (data.error) status = "error";
  else if (Array.isArray(data.interrupts) && data.interrupts.length) status = "interrupted";
  else status = "done";
  const next = { ...p, nodes: { ...p.nodes, [name]: status } };
  if (status !== "running" || namespace.length || typeof data.id !== "string") return next;
  return { ...next, taskInputs: { ...p.taskInputs, [data.id]: data.input } };
}

function onMessage(p: RunProgress, namespace: string[], data: unknown): RunProgress {
  if (!Array.isArray(data)) return p;
  const [chunk, metadata] = data as [unknown, unknown];
  if (!isJsonObject(chunk)) return p;
  const type = String(chunk.type ?? "");
  // Tool results are shown with their calls; people's messages were typed, not streamed.
  if (type !== "ai" && type !== "AIMessageChunk") return p;
  const id = String(chunk.id ?? `m${p.messages.length}`);
  const node = topNode(namespace, metadata);
  const text = textOf(chunk.content);
  let next = p;
  const i = p.messages.findIndex((m) => m.id === id);
  if (i < 0) {
    if (text) next = { ...p, messages: [...p.messages, { id, node, text }] };
  } else if (text) {
    const messages = p.messages.slice();
    messages[i] = { ...messages[i]!, text: messages[i]!.text + text };
    next = { ...p, messages };
  }
  const model =
    isJsonObject(metadata) && typeof metadata.ls_model_name === "string"
      ? metadata.ls_model_name
      : isJsonObject(chunk.response_metadata) &&
          typeof chunk.response_metadata.model_name === "string"
        ? chunk.response_metadata.model_name
        : undefined;
  // Streamed chunks carry their share of the usage (LangChain adds them up the same way).
  return withUsage(next, id, model, chunk.usage_metadata, "add", costIn(chunk.response_metadata));
}

/**
 * A message's usage: added from a streamed chunk, or set from the model's finished message
 * (`on_chat_model_end`, which every provider reports, streamed or not). The run's usage is the
 * sum over its messages, so a message counted both ways, in either order, is counted once.
 */
function withUsage(
  p: RunProgress,
  id: string,
  model: string | undefined,
  u: unknown,
  how: "add" | "set",
  cost?: number,
): RunProgress {
  if (!isJsonObject(u)) return p;
  if (how === "add" && p.usageFinished[id]) return p;
  const before = how === "add" ? p.usageByMessage[id] : undefined;
  const known =
    cost === undefined
      ? p.usageByMessage[id]?.cost
      : how === "add"
        ? (before?.cost ?? 0) + cost
        : cost;
  const mine: ModelUsage = {
    model: model ?? p.usageByMessage[id]?.model,
    input: sum(before?.input ?? 0, u.input_tokens),
    output: sum(before?.output ?? 0, u.output_tokens),
    total: sum(before?.total ?? 0, u.total_tokens),
    ...(known !== undefined ? { cost: known } : {}),
  };
  const usageByMessage = { ...p.usageByMessage, [id]: mine };
  const usageFinished =
    how === "set" ? { ...p.usageFinished, [id]: true as const } : p.usageFinished;
  const usage = { input: 0, output: 0, total: 0 };
  for (const m of Object.values(usageByMessage)) {
    usage.input += m.input;
    usage.output += m.output;
    usage.total += m.total;
  }
  return { ...p, usage, usageByMessage, usageFinished };
}

function onEvent(p: RunProgress, data: unknown): RunProgress {
  if (!isJsonObject(data) || typeof data.run_id !== "string") return p;
  const inner = isJsonObject(data.data) ? data.data : {};
  if (data.event === "on_chat_model_end" && isJsonObject(inner.output)) {
    const out = inner.output;
    const meta = isJsonObject(data.metadata) ? data.metadata : {};
    const model =
      typeof meta.ls_model_name === "string"
        ? meta.ls_model_name
        : isJsonObject(out.response_metadata) &&
            typeof out.response_metadata.model_name === "string"
          ? out.response_metadata.model_name
          : undefined;
    return withUsage(
      p,
      String(out.id ?? data.run_id),
      model,
      out.usage_metadata,
      "set",
      costIn(out.response_metadata),
    );
  }
  if (data.event === "on_tool_start") {
    if (p.toolCalls.some((c) => c.id === data.run_id)) return p;
    const call: ToolCall = {
      id: data.run_id,
      name: String(data.name ?? "tool"),
      node: topNode([], data.metadata),
      args: inner.input,
    };
    return { ...p, toolCalls: [...p.toolCalls, call] };
  }
  if (data.event === "on_tool_end" || data.event === "on_tool_error") {
    const i = p.toolCalls.findIndex((c) => c.id === data.run_id);
    if (i < 0) return p;
    // A failed tool's error is its message: the server strips the stack LangChain's tracer adds
    // before any client sees the event (run/graph-chunks.ts), and keeps events only in the memory
    // of the process that ran the graph, so none from before that change can come back.
    const out = inner.output ?? inner.error;
    const message = isJsonObject(out) && "content" in out ? out : undefined;
    const calls = p.toolCalls.slice();
    calls[i] = {
      ...calls[i]!,
      result: message ? message.content : out,
      failed: data.event === "on_tool_error" || message?.status === "error",
    };
    return { ...p, toolCalls: calls };
  }
  return p;
}

/** One server-sent event folded into the run. */
export function applyEvent(p: RunProgress, event: string, data: unknown): RunProgress {
  const [mode = "", ...namespace] = event.split("|");
  switch (mode) {
    case "metadata":
      return isJsonObject(data) && typeof data.run_id === "string"
        ? { ...p, runId: data.run_id }
        : p;
    case "tasks":
      // A subgraph's nodes light up in its opened cluster (`parent:child`); an agent's inner
      // steps are keyed the same way but drawn only through the agent's own node.
      return onTask(p, data, namespace);
    case "messages":
      return onMessage(p, namespace, data);
    case "events":
      return onEvent(p, data);
    case "error": {
      const message = isJsonObject(data)
        ? String(data.message ?? data.error ?? "the run failed")
        : String(data);
      const detail = errorDetailOf(data);
      if (detail.code === "cancelled") return { ...p, status: "cancelled" };
      return { ...p, status: "error", error: message, errorDetail: detail };
    }
    default:
      return p;
  }
}

/** How the run ended, once its stream closed: the thread's pending interrupts say if it paused. */
export function finishedProgress(p: RunProgress, interrupted: boolean): RunProgress {
  if (p.status === "cancelled") {
    // The nodes it stopped in neither finished nor failed: no mark.
    const nodes = Object.fromEntries(Object.entries(p.nodes).filter(([, s]) => s !== "running"));
    return { ...p, nodes };
  }
  if (p.status === "error") {
    const nodes = Object.fromEntries(
      Object.entries(p.nodes).map(([k, s]) => [k, s === "running" ? ("error" as const) : s]),
    );
    return { ...p, nodes };
  }
  // A node still running when the run ended well finished (a joined run streamed no `tasks`).
  const nodes = Object.fromEntries(
    Object.entries(p.nodes).map(([k, s]) => [k, s === "running" ? ("done" as const) : s]),
  );
  return { ...p, nodes, status: interrupted ? "interrupted" : "success" };
}

/**
 * A thread read back (a reload, a link to `?thread=`): its messages' text, the tool calls its AI
 * messages made with their tool messages' results, and the tokens their `usage_metadata` counts.
 * Arguments here are the model's (before binding); only a live run's `events` show bound ones.
 */
export function progressFromState(
  values: unknown,
  pausedAt: string[],
  next: string[],
): RunProgress {
  const p = emptyProgress();
  const list = isJsonObject(values) && Array.isArray(values.messages) ? values.messages : [];
  const results = new Map<string, JsonObject>();
  for (const m of list)
    if (isJsonObject(m) && m.type === "tool" && typeof m.tool_call_id === "string")
      results.set(m.tool_call_id, m);
  for (const [i, m] of list.entries()) {
    if (!isJsonObject(m) || m.type !== "ai") continue;
    const id = String(m.id ?? `m${i}`);
    const node = typeof m.name === "string" ? m.name : "";
    const text = textOf(m.content);
    if (text) p.messages.push({ id, node, text });
    for (const call of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
      if (!isJsonObject(call)) continue;
      const result = typeof call.id === "string" ? results.get(call.id) : undefined;
      p.toolCalls.push({
        id: String(call.id ?? `${id}-${p.toolCalls.length}`),
        name: String(call.name ?? "tool"),
        node,
        args: call.args,
        ...(result ? { result: result.content, failed: result.status === "error" } : {}),
      });
    }
    const u = m.usage_metadata;
    if (isJsonObject(u)) {
      const usage = {
        input: sum(0, u.input_tokens),
        output: sum(0, u.output_tokens),
        total: sum(0, u.total_tokens),
      };
      const meta = m.response_metadata;
      const model =
        isJsonObject(meta) && typeof meta.model_name === "string" ? meta.model_name : undefined;
      const cost = costIn(meta);
      p.usageByMessage[id] = { model, ...usage, ...(cost !== undefined ? { cost } : {}) };
      p.usage = {
        input: p.usage.input + usage.input,
        output: p.usage.output + usage.output,
        total: p.usage.total + usage.total,
      };
    }
  }
  p.nodes = Object.fromEntries(pausedAt.map((n) => [n, "interrupted" as const]));
  const empty = !isJsonObject(values) || Object.keys(values).length === 0;
  p.status = pausedAt.length ? "interrupted" : next.length || empty ? undefined : "success";
  return p;
}
