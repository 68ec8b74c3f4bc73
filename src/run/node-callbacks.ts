/**
 * A run's `node_start` / `node_end` events from LangChain's chain callbacks, for a run that goes
 * through LangGraph's `stream()` rather than `streamEvents()` (graph-chunks.ts, `nodeEventsOnly`):
 * the same nodes, steps and names as events.ts reports from `streamEvents`, without its tracer (a
 * run tree, an event per runnable, a web stream to carry them).
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Serialized } from "@langchain/core/load/serializable";
import type { StreamEvent } from "@langchain/core/tracers/log_stream";
import { eventMapper, type RunEvent } from "./events.js";

/** What `on_chain_start` / `on_chain_end` events events.ts reads: name, run id, tags, metadata. */
type ChainEvent = Pick<StreamEvent, "event" | "name" | "run_id" | "tags" | "metadata" | "data">;

export class NodeCallbacks extends BaseCallbackHandler {
  name = "graphspec-nodes";
  // Heard in the node's own path, as `streamEvents` reports it: before it runs, when it ends.
  override awaitHandlers = true;
  override ignoreLLM = true;
  override ignoreAgent = true;
  override ignoreRetriever = true;
  override ignoreCustomEvent = true;
  // Models stream their answers as under `streamEvents` (whose handler asks the same): the
  // provider gets the same requests — a recording made either way replays — and the messages are
  // the same, streamed chunks gathered.
  lc_prefer_streaming = true;
  private readonly map = eventMapper(() => ({ inputTokens: 0, outputTokens: 0, totalTokens: 0 }));
  /** The starts that were nodes of this graph, by run id: their ends are reported too. */
  private readonly nodes = new Map<string, ChainEvent>();

  constructor(private readonly emit: (event: RunEvent) => void) {
    super();
  }

  // LangChain's manager calls this with (chain, inputs, runId, parentRunId, tags, metadata,
  // runType, runName) — not in its declared order, whose types these positions fit.
  override async handleChainStart(
    chain: Serialized,
    _inputs: unknown,
    runId: string,
    _parentRunId?: string,
    tags?: string[],
    metadata?: Record<string, unknown>,
    _runType?: string,
    runName?: string,
  ): Promise<void> {
    const start: ChainEvent = {
      event: "on_chain_start",
      name: runName ?? chain.id[chain.id.length - 1] ?? "",
      run_id: runId,
      tags: tags ?? [],
      metadata: metadata ?? {},
      data: {},
    };
    const out = this.map(start as StreamEvent);
    if (!out.length) return;
    this.nodes.set(runId, start);
    for (const e of out) this.emit(e);
  }

  override async handleChainEnd(_outputs: unknown, runId: string): Promise<void> {
    const start = this.nodes.get(runId);
    if (!start) return;
    this.nodes.delete(runId);
    for (const e of this.map({ ...start, event: "on_chain_end" } as StreamEvent)) this.emit(e);
  }

  // A node that fails or pauses has no end (as in `streamEvents`).
  override async handleChainError(_err: unknown, runId: string): Promise<void> {
    this.nodes.delete(runId);
  }
}
