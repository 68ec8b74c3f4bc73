/**
 * The run's tool allowlist. A run may carry the ids of the tools its models may call
 * (`configurable.toolIds`: the executor's `allowedTools`, a server client's `toolIds`); a model's
 * call of any other tool does not run — it comes back to the model as an error tool message with
 * `artifact.errorCode: "policy_denied"`, and a `graphspec_policy_denied` custom event says so.
 * Checked where tools run (the `tools` node and an agent's loop), after any approval, so an edited
 * call and a call inside a subgraph are held to the same list.
 */
import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch";
import { ToolMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";

/** Where a run carries its allowlist: LangGraph Platform's name for it. */
export const TOOL_IDS_KEY = "toolIds";
/** The custom event a denied call dispatches (the executor reports it as `tool_denied`). */
export const POLICY_DENIED_EVENT = "graphspec_policy_denied";
/** The `errorCode` a denied call's tool message carries in its `artifact`. */
export const POLICY_DENIED = "policy_denied";

/**
 * The tools a run may call, or undefined when the run carries no allowlist. Anything but a list of
 * strings allows nothing: a malformed allowlist fails closed.
 */
export function allowedTools(
  configurable: Record<string, unknown> | undefined,
): readonly string[] | undefined {
  const ids = configurable?.[TOOL_IDS_KEY];
  if (ids === undefined || ids === null) return undefined;
  return Array.isArray(ids) && ids.every((id) => typeof id === "string") ? ids : [];
}

interface Call {
  name: string;
  args?: unknown;
  id?: string | undefined;
}

/**
 * The tool message answering a call the run's allowlist does not name, or undefined when the call
 * may run. Names are compared exactly: `Notify_Customer` is not `notify_customer`.
 */
export async function policyDenial(
  call: Call,
  configurable: Record<string, unknown> | undefined,
  config?: RunnableConfig,
): Promise<ToolMessage | undefined> {
  const allowed = allowedTools(configurable);
  if (allowed === undefined || allowed.includes(call.name)) return undefined;
  const may = allowed.length
    ? `You may use: ${allowed.join(", ")}.`
    : "This run may not use any tool: answer without one.";
  await dispatchCustomEvent(
    POLICY_DENIED_EVENT,
    { tool: call.name, args: call.args, allowedTools: [...allowed] },
    config,
  ).catch(() => {
    // Outside a run (no callbacks to dispatch to), the tool message still says it.
  });
  return new ToolMessage({
    content: `Error: tool "${call.name}" is not allowed in this run. ${may}`,
    name: call.name,
    tool_call_id: call.id ?? "",
    status: "error",
    artifact: { errorCode: POLICY_DENIED, tool: call.name, allowedTools: [...allowed] },
  });
}
