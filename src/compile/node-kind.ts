/**
 * What every node kind shares: the interface a kind implements (nodes/<kind>.ts, one file per
 * `kind:`), and what it lowers a spec node to — a function of one call, with what LangGraph needs
 * to know about it beforehand. The node wrapper (node-wrapper.ts) runs it.
 */
import type { Command, LangGraphRunnableConfig } from "@langchain/langgraph";
import type { Node } from "../spec/spec-types.generated.js";
import type { CompileContext } from "./compile-context.js";

/** One call of a node. */
export interface NodeCall {
  /** The state as LangGraph gives it (for a `map` target: the state with the `with` values laid over it). */
  state: Record<string, unknown>;
  /** The run's context, defaults filled in. */
  context: Record<string, unknown>;
  /** Expression variables: `state` (messages as Message records) and `context`. */
  vars: Record<string, unknown>;
  config: LangGraphRunnableConfig;
}

export type NodeResult =
  | Record<string, unknown>
  | Command
  | (Record<string, unknown> | Command)[]
  | null
  | undefined;

export interface LoweredNode {
  run(call: NodeCall): Promise<NodeResult> | NodeResult;
  /** Nodes this node may send the run to with `Command({ goto })`. */
  ends?: readonly string[];
  /** The channels it may write; another key is a run-time error. Undefined: any channel. */
  writes?: readonly string[];
  /** False for a node that never calls a model (run-usage.ts: no usage handler for it). */
  callsModels?: false;
  /**
   * The user's code, which may call a model without passing the config on (LangChain then finds
   * it in its async context): the node runs in that context with the usage handler (run-usage.ts).
   */
  userCode?: true;
  /** Graphs it runs inside itself, so LangGraph can show their state under the node. */
  subgraphs?: readonly unknown[];
}

/** A node kind: turns one spec node into a function LangGraph can run. */
export interface NodeKind<N extends Node = Node> {
  lower(name: string, node: N, ctx: CompileContext): LoweredNode | Promise<LoweredNode>;
}
