/**
 * An `agent` node's model calls in LangGraph's `messages` stream. The agent's loop runs as a
 * subgraph of the node, and without `subgraphs` LangGraph's stream leaves out what runs in a
 * subgraph: a client would get the node's messages whole when it ends. A LangGraph agent served
 * directly streams its answers token by token, so the agent's own model calls are shown to
 * LangGraph's stream handler as the node's — the node's namespace and `langgraph_*` keys, as an
 * `llm` node's calls are. A model called inside one of its tools stays out (it is internal), and
 * with `subgraphs` nothing changes: the calls keep the agent's namespace, as LangGraph gives them.
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { Serialized } from "@langchain/core/load/serializable";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChainValues } from "@langchain/core/utils/types";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";

/** The agent's nodes that call its model and its tools (LangChain's `createAgent`). */
const MODEL_NODE = "model_request";
const TOOLS_NODE = "tools";

type ChatModelStart = (
  llm: Serialized,
  messages: BaseMessage[][],
  runId: string,
  parentRunId?: string,
  extraParams?: Record<string, unknown>,
  tags?: string[],
  metadata?: Record<string, unknown>,
  name?: string,
) => unknown;

/** As LangChain's callback manager calls it (its declared parameter order differs). */
type ChainStart = (
  chain: Serialized,
  inputs: ChainValues,
  runId: string,
  parentRunId?: string,
  tags?: string[],
  metadata?: Record<string, unknown>,
  runType?: string,
  runName?: string,
) => unknown;

/** LangGraph's `messages` stream handler, as much of it as is read here. */
interface MessagesHandler {
  name: string;
  handleChatModelStart: ChatModelStart;
  handleChainStart: ChainStart;
  namespaceOptions?: { subgraphs?: boolean };
}

function handlersOf(callbacks: unknown): unknown[] {
  if (Array.isArray(callbacks)) return callbacks;
  const handlers = (callbacks as { handlers?: unknown } | undefined)?.handlers;
  return Array.isArray(handlers) ? handlers : [];
}

/**
 * The stream handler of a `messages` stream without subgraphs, if this run has one. A LangGraph
 * whose handler does not say (no `namespaceOptions`) is left to stream as it does.
 */
function flatMessagesStream(config: LangGraphRunnableConfig): MessagesHandler | undefined {
  const found = handlersOf(config.callbacks).find(
    (h): h is MessagesHandler =>
      (h as MessagesHandler)?.name === "StreamMessagesHandler" &&
      typeof (h as MessagesHandler).handleChatModelStart === "function" &&
      typeof (h as MessagesHandler).handleChainStart === "function",
  );
  return found?.namespaceOptions?.subgraphs === false ? found : undefined;
}

/** The keys that say where in the graph a run is: LangGraph's `langgraph_*` and `checkpoint_ns`. */
function placeOf(metadata: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(metadata ?? {}).filter(
      ([k]) => k.startsWith("langgraph_") || k === "checkpoint_ns",
    ),
  );
}

/**
 * Tells the stream handler of each of the agent's own model calls and tool steps, placed at the
 * node, so their tokens and tool results reach a client in the order they happen.
 */
class AgentTokens extends BaseCallbackHandler {
  name = "GraphspecAgentTokens";
  // The handler must know of a call before the call's first token reaches it.
  override awaitHandlers = true;
  readonly #stream: MessagesHandler;
  readonly #node: Record<string, unknown>;
  readonly #tags: string[] | undefined;
  readonly #inside: string;

  constructor(stream: MessagesHandler, node: Record<string, unknown>, tags: string[] | undefined) {
    super();
    this.#stream = stream;
    this.#node = node;
    this.#tags = tags;
    this.#inside = `${String(node.langgraph_checkpoint_ns)}|`;
  }

  /** A run of the agent's own `node`, one level under this node: not a nested subgraph's. */
  #own(metadata: Record<string, unknown> | undefined, node: string): boolean {
    const ns = String(metadata?.langgraph_checkpoint_ns ?? "");
    return (
      metadata?.langgraph_node === node &&
      ns.startsWith(this.#inside) &&
      !ns.slice(this.#inside.length).includes("|")
    );
  }

  // Named for the order the callback manager passes them in (see ChainStart).
  override handleChainStart(
    chain: Serialized,
    inputs: ChainValues,
    runId: string,
    parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    runType?: string,
    runName?: string,
  ): void {
    // The tools step itself (its name is its node's), not the tools it runs.
    if (runName !== TOOLS_NODE || !this.#own(metadata, TOOLS_NODE)) return;
    this.#stream.handleChainStart(
      chain,
      inputs,
      runId,
      parentRunId,
      this.#tags ?? tags,
      { ...metadata, ...this.#node },
      runType,
      String(this.#node.langgraph_node),
    );
  }

  override handleChatModelStart(
    llm: Serialized,
    messages: BaseMessage[][],
    runId: string,
    parentRunId?: string,
    extraParams?: Record<string, unknown>,
    tags?: string[],
    metadata?: Record<string, unknown>,
    name?: string,
  ): void {
    // The agent's model node's call: a model called inside a tool is the tool's own business.
    if (!this.#own(metadata, MODEL_NODE)) return;
    this.#stream.handleChatModelStart(
      llm,
      messages,
      runId,
      parentRunId,
      extraParams,
      tags,
      { ...metadata, ...this.#node },
      name,
    );
  }
}

/**
 * The callbacks to run the agent with: the node's, and — when the run streams `messages`
 * without subgraphs — one that shows the agent's model calls as the node's.
 */
export function agentCallbacks(config: LangGraphRunnableConfig): Callbacks | undefined {
  const stream = flatMessagesStream(config);
  const node = placeOf(config.metadata);
  if (!stream || typeof node.langgraph_checkpoint_ns !== "string") return config.callbacks;
  const relay = new AgentTokens(stream, node, config.tags);
  const callbacks = config.callbacks;
  if (Array.isArray(callbacks)) return [...callbacks, relay];
  return (callbacks as { copy(extra: BaseCallbackHandler[]): Callbacks }).copy([relay]);
}
