/** What a run gives back: status, output, pending interrupts, usage and a structured error. */

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export interface PendingInterrupt {
  /** The id to resume this interrupt by, when several are pending. */
  id: string;
  /** The node that paused. */
  node: string;
  value: unknown;
}

/**
 * Where a run failed: what the caller gave (input, context, resume value, thread), a node's work,
 * an edge's decision, or the run as a whole (recursion, budget, deadline, cancel).
 */
export type RunPhase = "input" | "node" | "edge" | "run";

export interface RunError {
  /** What went wrong, by kind (graphspec's run error codes, or recursion-limit, parallel-write, timeout, …). */
  code: string;
  phase: RunPhase;
  message: string;
  node?: string;
  field?: string;
  hint?: string;
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
