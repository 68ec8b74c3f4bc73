import type { ThreadState } from "@langchain/langgraph-sdk";

/** Who made a checkpoint: the nodes of its parent's tasks for a step, else how it was written. */
export function madeBy(s: ThreadState, parent: ThreadState | undefined): string {
  const source = s.metadata?.source;
  if (source === "loop") {
    const names = parent?.tasks.map((t) => (t.name === "__start__" ? "the input" : t.name)) ?? [];
    return names.length ? names.join(", ") : "a step";
  }
  if (source === "input") return "the run's input";
  if (source === "update") return "a state update";
  if (source === "fork") return "a fork";
  return String(source ?? "?");
}
