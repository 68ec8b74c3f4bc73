/**
 * Whether a thread can go on under the graph's current version. A spec changed under a paused
 * thread (`graphspec dev` reloads it, or a deploy replaces it) may no longer have the node the
 * thread waits at, or a channel holding its state; LangGraph would skip the node and drop the value
 * without a word (a resume "completes", or says there is nothing to resume). Read from the thread's
 * latest checkpoint as stored, not as the new graph sees it.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import type { RunError } from "./result.js";

/** LangGraph's trigger channel for a node that is to run next. */
const TRIGGER = "branch:to:";
/** A channel of the spec's state (graphspec's names); LangGraph's own channels have `__` or `:`. */
const STATE_CHANNEL = /^[A-Za-z_][A-Za-z0-9_]*$/;

const listed = (names: string[]) => names.map((n) => `\`${n}\``).join(", ");

export async function graphChanged(
  saver: BaseCheckpointSaver,
  threadId: string,
  spec: GraphSpec,
): Promise<RunError | undefined> {
  const tuple = await saver.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } });
  if (!tuple) return undefined;
  const keys = Object.keys(tuple.checkpoint.channel_values ?? {});
  const nodes = keys
    .filter((k) => k.startsWith(TRIGGER))
    .map((k) => k.slice(TRIGGER.length))
    .filter((n) => !Object.hasOwn(spec.nodes, n));
  const channels = keys.filter(
    (k) => STATE_CHANNEL.test(k) && !k.startsWith("__") && !Object.hasOwn(spec.state, k),
  );
  if (!nodes.length && !channels.length) return undefined;
  const missing = [
    ...(nodes.length
      ? [`node${nodes.length > 1 ? "s" : ""} ${listed(nodes)} it was to run next`]
      : []),
    ...(channels.length
      ? [`channel${channels.length > 1 ? "s" : ""} ${listed(channels)} holding its state`]
      : []),
  ];
  return {
    code: "graph-changed",
    phase: "input",
    message: `thread \`${threadId}\` cannot go on under graph \`${spec.name}\` as it is now: the spec no longer has the ${missing.join(", nor the ")}`,
    hint: "put the removed node or channel back to resume the thread (nothing of it was lost), or start a new thread",
  };
}
