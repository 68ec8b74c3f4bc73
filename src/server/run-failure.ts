/**
 * How a failed run's error reaches a client — the stream's `error` event, `runs.wait`'s
 * `__error__`, a run's record — LangGraph Platform's `{ error, message }`, and what graphspec
 * knows besides: the node that failed and how to fix it.
 */
import type { RunError } from "../run/result.js";

export interface RunFailure {
  /** The run error catalog's code (`unauthorized`, `invalid-output`, …). */
  error: string;
  message: string;
  node?: string;
  hint?: string;
}

export function runFailure({ code, message, node, hint }: RunError): RunFailure {
  return {
    error: code,
    message,
    ...(node !== undefined ? { node } : {}),
    ...(hint !== undefined ? { hint } : {}),
  };
}
