/**
 * A run request's `command` besides its `resume` — LangGraph's `goto` and `update` — as the
 * executor takes them (it checks the names against the graph: src/run/command-input.ts).
 */
import { ApiError } from "./api-error.js";
import type { RunCreate } from "./request-body.js";

/**
 * A run's `command` besides its `resume`: LangGraph's `goto` (node names) and `update` (channel
 * values), which the executor checks against the graph. LangGraph's own `Command.toJSON()` (what
 * RemoteGraph sends) writes `goto: []` for a plain resume: an empty goto and a null update are none.
 */
export function commandOf(
  command: RunCreate["command"],
): { goto?: string[]; update?: Record<string, unknown> } | undefined {
  if (!command) return undefined;
  const { goto, update } = command;
  const out: { goto?: string[]; update?: Record<string, unknown> } = {};
  if (goto != null) {
    const names = Array.isArray(goto) ? goto : [goto];
    if (!names.every((n) => typeof n === "string"))
      throw new ApiError(422, "unsupported", "command.goto with a Send is not supported", {
        field: "command.goto",
        hint: "go to nodes by name; a Send's fan-out belongs in the graph (a `map` node)",
      });
    if (names.length) out.goto = names as string[];
  }
  if (update != null) {
    if (typeof update !== "object" || Array.isArray(update))
      throw new ApiError(
        422,
        "invalid-request",
        "command.update must be an object of channel values",
        {
          field: "command.update",
          hint: 'write it as { "channel": value }',
        },
      );
    out.update = update as Record<string, unknown>;
  }
  return out.goto || out.update ? out : undefined;
}
