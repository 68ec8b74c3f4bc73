/**
 * LangGraph's StateGraph builder behind the four calls compile/ makes — add a node, an edge, a
 * conditional edge, compile — typed for exactly what compile/ passes.
 */

import { RunnableLambda } from "@langchain/core/runnables";
import {
  type BaseCheckpointSaver,
  type BaseStore,
  type CachePolicy,
  type Command,
  type CompiledStateGraph,
  END,
  type LangGraphRunnableConfig,
  type RetryPolicy,
  type Send,
  START,
  StateGraph,
} from "@langchain/langgraph";
import type { BaseCache } from "@langchain/langgraph-checkpoint";
import type { StateSchemas } from "./state.js";

type State = Record<string, unknown>;

/** What a node gives back: an update of the state, or a Command. */
export type NodeUpdate = State | Command | (State | Command)[];

/** A node as LangGraph runs it. */
export type NodeFunction = (
  state: State,
  config: LangGraphRunnableConfig,
) => NodeUpdate | Promise<NodeUpdate>;

/** A node's error handler: runs when the node failed and its retries are spent. */
export type ErrorHandler = (
  state: State,
  failure: { error?: unknown } | undefined,
  config?: LangGraphRunnableConfig,
) => NodeUpdate;

/** LangGraph's node options, as far as compile/ sets them. */
export interface NodeOptions {
  retryPolicy?: RetryPolicy;
  cachePolicy?: CachePolicy;
  /** Milliseconds per attempt. */
  timeout?: number;
  defer?: boolean;
  errorHandler?: ErrorHandler;
  /** The nodes the node may send the run to with `Command({ goto })`. */
  ends?: string[];
  /** Compiled graphs the node runs inside itself. */
  subgraphs?: unknown[];
}

/** Where a conditional edge sends the run: a node, several, or `Send`s. */
export type Decision = string | Send | (string | Send)[];

/** A conditional edge's function. LangGraph names the edge after it. */
export type Decide = (
  state: State,
  config: LangGraphRunnableConfig,
) => Decision | Promise<Decision>;

export interface GraphCompileOptions {
  checkpointer?: BaseCheckpointSaver | false;
  store?: BaseStore;
  cache?: BaseCache;
  interruptBefore?: string[];
  interruptAfter?: string[];
  name: string;
  description?: string;
}

/** The compiled graph, before it becomes a SpecGraph (spec-graph.ts). */
export type CompiledGraph = CompiledStateGraph<never, never>;

/** LangGraph's StateGraph, as this file calls it. */
interface LooseStateGraph {
  /** The nodes added so far, by name. */
  nodes: Record<string, unknown>;
  /** One-source edges, as `addEdge(from, to)` records them (public fields of LangGraph's Graph). */
  edges: Set<[string, string]>;
  /** Joins, as `addEdge([from…], to)` records them (a public field of StateGraph). */
  waitingEdges: Set<[string[], string]>;
  addNode(name: string, node: NodeFunction, options?: NodeOptions): unknown;
  addEdge(from: string | string[], to: string): unknown;
  addConditionalEdges(
    source: string,
    path: RunnableLambda<State, Decision>,
    ends: string[],
  ): unknown;
  compile(options: GraphCompileOptions): CompiledGraph;
}

export class GraphBuilder {
  private readonly graph: LooseStateGraph;

  constructor(schemas: StateSchemas) {
    // The one loose cast. StateGraph's types follow the node names through its generics (each
    // addNode returns a StateGraph whose node-name union includes the new name, and edges must
    // name members of it); a spec's node names are data, known only at run time, so no call here
    // could type-check against them. LangGraph checks names itself when it compiles.
    this.graph = new StateGraph({
      state: schemas.state,
      ...(schemas.input ? { input: schemas.input } : {}),
      ...(schemas.output ? { output: schemas.output } : {}),
    }) as unknown as LooseStateGraph;
  }

  addNode(name: string, node: NodeFunction, options?: NodeOptions): void {
    this.graph.addNode(name, node, options);
  }

  /**
   * An edge from one node, or a join: from all of a list of nodes, once each has run.
   *
   * Recorded as LangGraph's addEdge records it, after the same checks, without its cost: its
   * addEdge copies the list of every edge so far on each call (looking for a second edge from the
   * source, which only a plain Graph refuses), and a join lists every node's name once per source.
   * A hand-written 2,000-node fan-out and join spends most of its build there (bench/README.md).
   * A LangGraph whose fields are not these Sets gets the call itself.
   */
  addEdge(from: string | string[], to: string): void {
    const { edges, waitingEdges, nodes } = this.graph;
    if (!(edges instanceof Set) || !(waitingEdges instanceof Set)) {
      this.graph.addEdge(from, to);
      return;
    }
    if (typeof from === "string") {
      if (from === END) throw new Error("END cannot be a start node");
      if (to === START) throw new Error("START cannot be an end node");
      edges.add([from, to]);
      return;
    }
    for (const name of [...from, to]) {
      if (name === END) throw new Error(`END cannot be ${name === to ? "an end" : "a start"} node`);
      if (!Object.hasOwn(nodes, name)) throw new Error(`Need to add a node named "${name}" first`);
    }
    waitingEdges.add([from, to]);
  }

  /**
   * `ends`: every node `path` may send the run to (LangGraph's path map). `name` must differ among
   * the conditional edges of one source: LangGraph keys a source's branches by the path's
   * runnable name (a plain function is always "condition", so a second one would be refused).
   */
  addConditionalEdges(source: string, path: Decide, ends: string[], name: string): void {
    const runnable = new RunnableLambda<State, Decision>({ func: path });
    runnable.name = name;
    this.graph.addConditionalEdges(source, runnable, ends);
  }

  compile(options: GraphCompileOptions): CompiledGraph {
    return this.graph.compile(options);
  }
}
