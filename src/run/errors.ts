/**
 * Any failure of a run as a RunError: graphspec's own errors keep their code, node, field and
 * hint; LangGraph's and providers' get a code and a hint of their own. Never a stack trace.
 */
import { GraphspecRunError } from "../compile/errors.js";
import type { RunError } from "./result.js";

const firstLine = (e: unknown): string => String((e as Error)?.message ?? e).split("\n")[0] ?? "";

/** The error, or the first error in its `cause` chain, that says something a user can act on. */
function causes(e: unknown): unknown[] {
  const out: unknown[] = [];
  for (let c: unknown = e; c && out.length < 8; c = (c as { cause?: unknown }).cause) out.push(c);
  return out;
}

export function toRunError(e: unknown): RunError {
  if (e instanceof GraphspecRunError) {
    return {
      code: e.code,
      message: e.message,
      ...(e.node ? { node: e.node } : {}),
      ...(e.field ? { field: e.field } : {}),
      ...(e.hint ? { hint: e.hint } : {}),
    };
  }
  const name = (e as Error)?.name ?? "Error";
  const message = firstLine(e);
  switch (name) {
    case "GraphRecursionError":
      return {
        code: "recursion-limit",
        message,
        hint: "raise `limits.recursion` in the spec, or check the loop's exit condition",
      };
    case "InvalidUpdateError":
      return {
        code: "parallel-write",
        message,
        hint: "give the channel a reducer (append, merge, …), or stop writing it from nodes of one step",
      };
    case "NodeTimeoutError":
      return {
        code: "timeout",
        message,
        hint: "raise the node's `timeout_ms`, or make the node faster",
      };
  }
  for (const c of causes(e)) {
    const status = Number((c as { status?: unknown })?.status);
    if (status === 429 || /rate.?limit|quota/i.test(firstLine(c))) {
      return {
        code: "throttled",
        message: firstLine(c),
        hint: "the model provider is throttling: retry later, or add `retry` to the node",
      };
    }
  }
  return {
    code: "node-error",
    message: name !== "Error" && !message.startsWith(name) ? `${name}: ${message}` : message,
  };
}
