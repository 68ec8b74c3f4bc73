/**
 * A run's events, in order: what LangGraph's `streamEvents` reports, narrowed to what a person
 * or a program following the run needs — nodes of this graph starting and ending, tokens, tool
 * calls and results, interrupts, usage after each model call — ending with exactly one final event
 * that carries the RunResult.
 */
import type { StreamEvent } from "@langchain/core/tracers/log_stream";
import { POLICY_DENIED_EVENT } from "../compile/tool-policy.js";
import type { RunResult, TokenUsage } from "./result.js";

export type RunEvent =
  | { type: "run_start"; threadId: string; graph: string }
  | { type: "node_start"; node: string; step: number }
  | { type: "node_end"; node: string }
  | { type: "token"; node: string; text: string }
  | { type: "tool_call"; node: string; tool: string; args: unknown }
  | { type: "tool_result"; node: string; tool: string; output: unknown }
  /** A model's call the run's `allowedTools` does not name: it did not run (tool-policy.ts). */
  | { type: "tool_denied"; node: string; tool: string; args: unknown; allowedTools: string[] }
  | { type: "interrupt"; node: string; id: string; value: unknown }
  /** What a node or tool wrote with `runtime.writer` (`name` absent), or a LangChain custom event. */
  | { type: "custom"; node: string; name?: string; data: unknown }
  | { type: "usage"; usage: TokenUsage }
  /** A chunk of one of LangGraph's stream modes, when asked for (`StreamOptions.graphStream`). */
  | { type: "graph_chunk"; mode: string; namespace: string[]; data: unknown }
  /** A raw LangGraph `streamEvents` event, when asked for (`graphStream.events`). */
  | { type: "graph_event"; event: Record<string, unknown> }
  | { type: "completed" | "interrupted" | "failed"; result: RunResult };

/** The custom event the executor's `runtime.writer` dispatches (reported as a `custom` event). */
export const WRITER_EVENT = "graphspec_writer";

/** The node of this graph (not of a subgraph or agent inside it) an event belongs to. */
function topNode(e: StreamEvent): string | undefined {
  const meta = (e.metadata ?? {}) as Record<string, unknown>;
  const node = meta.langgraph_node;
  const ns = String(meta.langgraph_checkpoint_ns ?? meta.checkpoint_ns ?? "");
  if (typeof node !== "string") return undefined;
  // Inside a subgraph the namespace is `parent:<task>|child:<task>`: report it as the parent node.
  return ns.includes("|") ? ns.split(":")[0] : node;
}

/** A node of this graph as LangGraph runs it: tagged with its step (an agent run inside is not). */
const isOwnNode = (e: StreamEvent): boolean => {
  const meta = (e.metadata ?? {}) as Record<string, unknown>;
  const ns = String(meta.langgraph_checkpoint_ns ?? "");
  return (
    e.name === meta.langgraph_node &&
    !ns.includes("|") &&
    !e.name.startsWith("__") &&
    (e.tags ?? []).some((t) => t.startsWith("graph:step:"))
  );
};

/** The superstep a node of this graph runs in, from LangGraph's `graph:step:N` tag. */
const stepOf = (e: StreamEvent): number =>
  Number((e.tags ?? []).find((t) => t.startsWith("graph:step:"))?.slice("graph:step:".length));

/**
 * Maps LangGraph stream events to run events. Stateful: a node or tool that runs another runnable
 * of the same name inside it (a tool wrapped for `bind`) shows up twice, under the same run id,
 * in LangGraph's stream; it is reported once.
 */
export function eventMapper(usage: () => TokenUsage): (e: StreamEvent) => RunEvent[] {
  const seen = new Set<string>();
  /** Whether this event was met already (under the same run id); records it when not. */
  const repeated = (e: StreamEvent) => {
    const key = `${e.event}\0${e.name}\0${e.run_id}`;
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  };
  return (e) => {
    const node = topNode(e);
    switch (e.event) {
      case "on_chain_start":
        return isOwnNode(e) && !repeated(e)
          ? [{ type: "node_start", node: e.name, step: stepOf(e) }]
          : [];
      case "on_chain_end":
        return isOwnNode(e) && !repeated(e) ? [{ type: "node_end", node: e.name }] : [];
      case "on_chat_model_stream": {
        const text = (e.data?.chunk as { text?: unknown } | undefined)?.text;
        return typeof text === "string" && text && node ? [{ type: "token", node, text }] : [];
      }
      case "on_chat_model_end":
        return [{ type: "usage", usage: { ...usage() } }];
      case "on_tool_start":
        if (!node || repeated(e)) return [];
        return [{ type: "tool_call", node, tool: e.name, args: e.data?.input }];
      case "on_tool_end": {
        if (!node || repeated(e)) return [];
        const output = e.data?.output as { content?: unknown } | undefined;
        return [{ type: "tool_result", node, tool: e.name, output: output?.content ?? output }];
      }
      case "on_custom_event": {
        if (!node) return [];
        if (e.name === WRITER_EVENT) return [{ type: "custom", node, data: e.data }];
        if (e.name !== POLICY_DENIED_EVENT)
          return [{ type: "custom", node, name: e.name, data: e.data }];
        const d = e.data as { tool: string; args: unknown; allowedTools: string[] };
        return [
          { type: "tool_denied", node, tool: d.tool, args: d.args, allowedTools: d.allowedTools },
        ];
      }
      default:
        return [];
    }
  };
}
