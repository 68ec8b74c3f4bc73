/**
 * A failed run's error as the stream's `error` event carries it and a run's record keeps it:
 * LangGraph Platform's `{ error, message }` (`error` is graphspec's code), with the fix (`hint`)
 * and where it failed (`node`, and `path` for a failure inside a subgraph) when known.
 */
import type { RunError } from "../run/result.js";

export interface RunErrorEvent {
  error: string;
  message: string;
  hint?: string;
  node?: string;
  path?: string[];
}

export const runErrorEvent = (e: RunError): RunErrorEvent => ({
  error: e.code,
  message: e.message,
  ...(e.hint ? { hint: e.hint } : {}),
  ...(e.node ? { node: e.node } : {}),
  ...(e.path?.length ? { path: e.path } : {}),
});
