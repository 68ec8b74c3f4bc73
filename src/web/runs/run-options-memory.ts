/**
 * The run options chosen for a graph, kept for the browser tab (sessionStorage), as the stand-in
 * choice is: a reload, a thread opened from its page or "Run from here" comes back to the same
 * model, tools and breakpoints — so a follow-up message or a Continue does not silently run with
 * other choices than the run before it.
 */
import { noRunOptions, type RunChoices, type RunOptions, strings } from "./run-options.js";

const storageKey = (graph: string) => `graphspec.runOptions.${graph}`;

/** What was kept for the graph, less what it no longer offers (a model, a tool, a node gone). */
export function keptRunOptions(graph: string, choices: RunChoices, nodes: string[]): RunOptions {
  let kept: Record<string, unknown> = {};
  try {
    kept = JSON.parse(globalThis.sessionStorage?.getItem(storageKey(graph)) ?? "{}");
  } catch {
    // Not ours, or written by another version of the page: start afresh.
  }
  const fresh = noRunOptions();
  const model = typeof kept.model === "string" ? kept.model : "";
  return {
    model: choices.models.includes(model) ? model : fresh.model,
    toolsOff: strings(kept.toolsOff).filter((t) => choices.tools.includes(t)),
    pauseBefore: strings(kept.pauseBefore).filter((n) => nodes.includes(n)),
    pauseAfter: strings(kept.pauseAfter).filter((n) => nodes.includes(n)),
    recursionLimit: typeof kept.recursionLimit === "string" ? kept.recursionLimit : "",
  };
}

export function keepRunOptions(graph: string, options: RunOptions): void {
  globalThis.sessionStorage?.setItem(storageKey(graph), JSON.stringify(options));
}
