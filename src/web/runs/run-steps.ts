/**
 * A thread's steps as the run view lists them, from its checkpoints (`threads.getHistory`, newest
 * first): each step's nodes, the state they got (the step's parent checkpoint's values), what each
 * wrote (the parent's task's `result`) and the state after. Pure, so it is tested without a browser.
 */
import type { ThreadState } from "@langchain/langgraph-sdk";

export interface StepUpdate {
  /** The task's id: the stream's `tasks` events name it too. */
  task: string;
  node: string;
  /** What the node wrote (`{ channel: value }`); undefined when the server does not say. */
  update: unknown;
}

export interface RunStep {
  /** The checkpoint the step made. */
  id: string;
  step: number;
  /** The nodes that ran in it; `__start__` is the run's input being written. */
  nodes: string[];
  /** The state the step's nodes got: its parent checkpoint's values. */
  before: Record<string, unknown>;
  updates: StepUpdate[];
  after: Record<string, unknown>;
}

const valuesOf = (s: ThreadState): Record<string, unknown> =>
  typeof s.values === "object" && s.values !== null && !Array.isArray(s.values)
    ? (s.values as Record<string, unknown>)
    : {};

/** The steps the history holds, oldest first: each checkpoint a step wrote whose parent is known. */
export function stepsOf(history: ThreadState[]): RunStep[] {
  const byId = new Map(history.map((s) => [s.checkpoint.checkpoint_id ?? "", s]));
  const steps: RunStep[] = [];
  for (const s of history) {
    if (s.metadata?.source !== "loop") continue;
    const parent = byId.get(s.parent_checkpoint?.checkpoint_id ?? "");
    if (!parent) continue;
    // The parent's tasks that finished made this checkpoint; one that paused or failed wrote nothing.
    const ran = parent.tasks.filter((t) => !t.interrupts?.length && !t.error);
    steps.push({
      id: s.checkpoint.checkpoint_id ?? "",
      step: typeof s.metadata.step === "number" ? s.metadata.step : steps.length,
      nodes: ran.map((t) => t.name),
      before: valuesOf(parent),
      updates: ran.map((t) => ({ task: t.id, node: t.name, update: t.result ?? undefined })),
      after: valuesOf(s),
    });
  }
  return steps.reverse();
}

/** A step's nodes as the page names them: the run's input for `__start__`, `draft ×3` for a map's runs. */
export function stepName(step: RunStep): string {
  const counts = new Map<string, number>();
  for (const n of step.nodes) counts.set(n, (counts.get(n) ?? 0) + 1);
  const names = [...counts].map(
    ([n, k]) => `${n === "__start__" ? "input" : n}${k > 1 ? ` ×${k}` : ""}`,
  );
  return names.join(", ") || "a step";
}

/** The latest step a node ran in (a node clicked in the drawing selects it). */
export function lastStepOf(steps: RunStep[], node: string): RunStep | undefined {
  return steps.findLast((s) => s.nodes.includes(node));
}

/**
 * The run's output: the final state's values, only the output schema's keys when it names some
 * (a spec's `output:`), as `runs.wait` would return them.
 */
export function outputOf(
  values: Record<string, unknown>,
  outputSchema: { properties?: Record<string, unknown> } | undefined,
): Record<string, unknown> {
  const keys = Object.keys(outputSchema?.properties ?? {});
  if (!keys.length) return values;
  return Object.fromEntries(Object.entries(values).filter(([k]) => keys.includes(k)));
}
