/**
 * A failed run's error as the official LangGraph server shows it to a client. That server passes
 * on an error's `name` and `message` only (`{ error: e.name, message: e.message }` in the stream's
 * `error` event, runs.wait and join), so the error is classified as `graphspec serve` classifies
 * it: `name` is the run error catalog's code — `graphspec serve`'s `error` — and the message is
 * serve's `message`, then its `hint` on a line of its own. Paths are relative to the project, as
 * serve shows them. The rest (`code`, `hint`, `node`, `path`) stays on the error for in-process
 * callers and the server's log.
 */
import { toRunError } from "../run/classify-error.js";
import type { RunError } from "../run/result.js";
import { clientText } from "./client-text.js";

export class PlatformRunError extends Error {
  readonly code: RunError["code"];
  readonly hint: string | undefined;
  readonly node: string | undefined;
  readonly path: string[] | undefined;

  constructor(error: RunError, cause: unknown) {
    super(error.hint ? `${error.message}\nhint: ${error.hint}` : error.message, { cause });
    this.name = error.code;
    this.code = error.code;
    this.hint = error.hint;
    this.node = error.node;
    this.path = error.path;
  }
}

/** `e`, thrown by a run of a graph in the project at `root`, as the client should see it. */
export function platformRunError(e: unknown, root: string): PlatformRunError {
  const error = toRunError(e);
  const view = { root, threads: new Map<string, string>() };
  return new PlatformRunError(
    {
      ...error,
      message: clientText(error.message, view),
      ...(error.hint !== undefined ? { hint: clientText(error.hint, view) } : {}),
    },
    e,
  );
}
