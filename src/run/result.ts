/** What a run gives back: status, output, pending interrupts, usage and a structured error. */
import type { RunErrorCode, RunPhase } from "../diagnostics/run-error-catalog.js";

export type { RunPhase };

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /**
   * USD, summed over the calls whose answer gave a cost: a gateway's `x-litellm-response-cost`
   * header or the provider's own `usage.cost`. Absent when no call gave one.
   */
  cost?: number;
}

export interface PendingInterrupt {
  /** The id to resume this interrupt by, when several are pending. */
  id: string;
  /** The node that paused. */
  node: string;
  value: unknown;
}

/** Why a provider refused a call (`throttled`): a rate limit passes with time; a quota does not. */
export type ThrottleReason = "rate-limit" | "quota";

export interface RunError {
  /** What went wrong, by kind: one of the run error catalog's codes. */
  code: RunErrorCode;
  phase: RunPhase;
  message: string;
  /** The node of the run's graph that failed (or whose edge did). */
  node?: string;
  /**
   * For a failure inside a subgraph: the nodes from the run's graph down to where it failed —
   * the subgraph node, the nodes of nested subgraphs, then the child's node that failed (when one
   * did: a step's colliding writes name none), e.g. `["research", "search", "fetch"]`.
   */
  path?: string[];
  field?: string;
  hint?: string;
  /** With `throttled`: whether the provider's rate limit or the key's quota refused the call. */
  reason?: ThrottleReason;
}

export interface RunResult {
  status: "completed" | "interrupted" | "failed";
  /** The graph's output (its `output` keys) as it stands: final, or at the pause or failure. */
  output: Record<string, unknown>;
  threadId: string;
  /** The latest checkpoint of the thread. */
  checkpointId: string | undefined;
  interrupts: PendingInterrupt[];
  /** The nodes that would run next (a paused or failed run). */
  next: string[];
  /** Summed over every model call of the run. */
  usage: TokenUsage;
  warnings: string[];
  error?: RunError;
}
