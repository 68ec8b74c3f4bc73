/**
 * How a failed run's error reaches a client — the stream's `error` event, `runs.wait`'s
 * `__error__`, a run's record — LangGraph Platform's `{ error, message }`, and what graphspec
 * knows besides: how to fix it (`hint`), the node that failed, and for a failure inside a
 * subgraph the path of nodes down to it.
 */
import type { RunError } from "../run/result.js";

export interface RunFailure {
  /** The run error catalog's code (`unauthorized`, `invalid-output`, …). */
  error: string;
  message: string;
  hint?: string;
  node?: string;
  /** The nodes from the graph's own down to the one that failed, inside subgraphs. */
  path?: string[];
}

export function runFailure({ code, message, node, hint, path }: RunError): RunFailure {
  return {
    error: code,
    message,
    ...(hint !== undefined ? { hint } : {}),
    ...(node !== undefined ? { node } : {}),
    ...(path?.length ? { path } : {}),
  };
}
