/**
 * A run's place in its scripts. Turns belong to a thread's runs: a run on a new thread starts at
 * the first turn of each script, and a resume (or a later run on the thread) starts after the
 * turns its earlier runs took — in this process or another (the positions are kept with the
 * thread: compile/script-positions.ts). Every model of a run — its subgraphs' included — takes
 * turns from the run's one queue per script, found through the run's config.
 */
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import {
  type ScriptedTurn,
  type ScriptPosition,
  ScriptQueue,
  type ScriptQueues,
} from "./script.js";

/** Where a run's ScriptRun travels: its `configurable`, which LangGraph hands to every node and subgraph. */
export const SCRIPT_RUN_KEY = "__graphspec_script_run";

/** Positions by script name, as kept with a thread. */
export type ScriptPositions = Record<string, ScriptPosition>;

/**
 * Where a subgraph's run keeps the step of its parent's task that started it: its models' turns
 * count towards that step of the root graph (a subgraph's own steps are numbered apart).
 */
export const SCRIPT_ROOT_STEP_KEY = "__graphspec_script_root_step";

/** The root graph's step a model is called in, from the call's config; undefined outside a run. */
function rootStepNow(): number | undefined {
  const config = AsyncLocalStorageProviderSingleton.getRunnableConfig() as
    | { configurable?: Record<string, unknown>; metadata?: Record<string, unknown> }
    | undefined;
  const step = config?.configurable?.[SCRIPT_ROOT_STEP_KEY] ?? config?.metadata?.langgraph_step;
  return typeof step === "number" ? step : undefined;
}

export class ScriptRun {
  private readonly queues = new Map<string, ScriptQueue>();
  /** Each turn or tool call id taken, with the root step it was taken in, in order. */
  private readonly taken: { name: string; step: number | undefined; position: ScriptPosition }[] =
    [];

  constructor(
    private readonly start: ScriptPositions = {},
    /** The compile's scripts, told how far this run got (a fixture's unused turns). */
    private readonly book?: ScriptQueues,
  ) {}

  /** This run's queue of script `name` with these turns. */
  queue(name: string, turns: readonly ScriptedTurn[]): ScriptQueue {
    let queue = this.queues.get(name);
    if (!queue) {
      const start = this.start[name];
      const observe = this.book?.observer(name);
      queue = new ScriptQueue(name, turns, start, (position) => {
        observe?.(position);
        this.taken.push({ name, step: rootStepNow(), position });
      });
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** Where each script stands now (those the thread's runs have used). */
  positions(): ScriptPositions {
    const out: ScriptPositions = { ...this.start };
    for (const [name, queue] of this.queues) out[name] = queue.position;
    return out;
  }

  /**
   * Where each script stood once the root graph's step `step` ended: this run's turns taken in
   * that step or before it, none after. A checkpoint of that step keeps them, so a run from it
   * (a fork, "Run from here") takes the turns its later steps took.
   */
  positionsAt(step: number): ScriptPositions {
    const out: ScriptPositions = { ...this.start };
    for (const t of this.taken)
      if (t.step !== undefined && t.step <= step) out[t.name] = t.position;
    return out;
  }

  /** Whether this run took any turn (or handed out any tool call id). */
  moved(): boolean {
    return [...this.queues].some(([name, q]) => {
      const was = this.start[name];
      return (
        q.position.calls !== (was?.calls ?? 0) || q.position.toolCallIds !== (was?.toolCallIds ?? 0)
      );
    });
  }
}

/** The ScriptRun of the run a model is called in, if it is called inside a graph's run. */
export function currentScriptRun(): ScriptRun | undefined {
  const config = AsyncLocalStorageProviderSingleton.getRunnableConfig() as
    | { configurable?: Record<string, unknown> }
    | undefined;
  const run = config?.configurable?.[SCRIPT_RUN_KEY];
  return run instanceof ScriptRun ? run : undefined;
}
