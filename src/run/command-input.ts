/**
 * LangGraph's `Command({ goto, update })` sent with a resume (or alone), checked against the graph
 * before anything runs: LangGraph drops a write to a channel the graph lacks, and a goto to a node
 * it lacks, without a word — here each is refused, naming it, with the graph's own names as hint.
 */
import type { ResumeOptions } from "./executor-api.js";
import type { Loaded } from "./graph-loader.js";
import type { RunError } from "./result.js";

/** The goto and update of a resume, or the error that refuses them. */
export function commandParts(
  opts: Pick<ResumeOptions, "goto" | "update">,
  loaded: Loaded,
): { goto?: string[]; update?: Record<string, unknown> } | { error: RunError } {
  const out: { goto?: string[]; update?: Record<string, unknown> } = {};
  if (opts.goto !== undefined) {
    const goto = typeof opts.goto === "string" ? [opts.goto] : opts.goto;
    const nodes = Object.keys(loaded.spec.nodes ?? {});
    const unknown = goto.find((n) => typeof n !== "string" || !nodes.includes(n));
    if (unknown !== undefined)
      return {
        error: {
          code: "invalid-command",
          phase: "input",
          field: "command.goto",
          message: `command.goto names \`${String(unknown)}\`, which is not a node of the graph`,
          hint: `go to one of its nodes: ${nodes.map((n) => `\`${n}\``).join(", ")}`,
        },
      };
    if (goto.length) out.goto = goto;
  }
  if (opts.update !== undefined) {
    const channels = Object.keys(loaded.spec.state ?? {});
    const unknown = Object.keys(opts.update).find((k) => !channels.includes(k));
    if (unknown !== undefined)
      return {
        error: {
          code: "invalid-command",
          phase: "input",
          field: `command.update.${unknown}`,
          message: `command.update writes \`${unknown}\`, which is not a channel of the state`,
          hint: `write one of its channels: ${channels.map((c) => `\`${c}\``).join(", ")}`,
        },
      };
    out.update = opts.update;
  }
  return out;
}
