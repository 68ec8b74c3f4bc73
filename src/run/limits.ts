/**
 * A run's limits: a token budget checked after every model call, a deadline, and the caller's
 * cancel signal. Each stops the run through one AbortSignal handed to LangGraph, which abandons
 * the step in flight and keeps every checkpoint written before it — so a stopped run can be
 * resumed (with a new budget or deadline) from where it stood.
 */
import type { RunError, TokenUsage } from "./result.js";

export interface RunLimits {
  /** The most tokens (input + output, summed over the run's model calls) this run may use. */
  maxTokens?: number;
  /** When the run must stop: milliseconds from its start, or a point in time. */
  deadline?: number | Date;
  /** Stops the run when aborted (the caller cancelled it). */
  signal?: AbortSignal;
}

export interface RunGuard {
  /** For LangGraph's `signal`: aborted when a limit is reached. */
  signal: AbortSignal;
  /** Call after each model call with the run's usage so far. */
  afterModelCall(usage: TokenUsage): void;
  /** Why the run was stopped, when a limit stopped it. */
  stopped(): RunError | undefined;
  dispose(): void;
}

/** Milliseconds until a deadline given as a duration or a point in time. */
const msUntil = (deadline: number | Date) =>
  deadline instanceof Date ? deadline.getTime() - Date.now() : deadline;

/** The longest delay a Node timer takes (2^31 − 1 ms, 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export function guardRun(limits: RunLimits = {}): RunGuard {
  const controller = new AbortController();
  let reason: RunError | undefined;
  const stop = (error: RunError) => {
    if (controller.signal.aborted) return;
    reason = error;
    controller.abort(error);
  };

  const { maxTokens, deadline, signal } = limits;
  let timer: NodeJS.Timeout | undefined;
  if (deadline !== undefined) {
    const stopAtDeadline = () =>
      stop({
        code: "deadline-exceeded",
        phase: "run",
        message:
          deadline instanceof Date
            ? `the run passed its deadline (${deadline.toISOString()})`
            : `the run passed its deadline (${deadline} ms)`,
        hint: "resume the thread to go on from its last checkpoint, with a later deadline",
      });
    const end = Date.now() + msUntil(deadline);
    // A deadline beyond a timer's reach is waited for in steps the timer can take.
    const wait = () => {
      const left = end - Date.now();
      if (!(left > 0)) stopAtDeadline();
      else timer = setTimeout(wait, Math.min(left, MAX_TIMER_MS));
    };
    wait();
  }
  const cancel = () =>
    stop({
      code: "cancelled",
      phase: "run",
      message: "the run was cancelled",
      hint: "resume the thread to go on from its last checkpoint",
    });
  if (signal?.aborted) cancel();
  else signal?.addEventListener("abort", cancel, { once: true });

  return {
    signal: controller.signal,
    afterModelCall(usage) {
      if (maxTokens === undefined || usage.totalTokens <= maxTokens) return;
      stop({
        code: "budget-exceeded",
        phase: "run",
        message: `the run used ${usage.totalTokens} tokens, over its budget of ${maxTokens}`,
        hint: "resume the thread with a larger budget (--max-tokens) to go on from its last checkpoint; the node that was running starts again",
      });
    },
    stopped: () => reason,
    dispose() {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener("abort", cancel);
    },
  };
}
