/**
 * A request the server refuses, and the JSON body it answers with: what is wrong, in which field,
 * and how to fix it — never a stack trace. `detail` repeats the message, as the LangGraph server
 * words its errors, so clients written for it show something useful.
 */
import type { RunError } from "../run/result.js";

export type ApiStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 501 | 503;

export class ApiError extends Error {
  constructor(
    readonly status: ApiStatus,
    /** A stable, machine-readable name of the problem (`invalid-json`, `thread-not-found`, …). */
    readonly code: string,
    message: string,
    readonly extra: { field?: string; hint?: string } = {},
    /** Seconds the client should wait before asking again (a 429's `retry-after` header). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }

  body(): Record<string, unknown> {
    return { error: this.code, message: this.message, ...this.extra, detail: this.message };
  }
}

/** The HTTP status of a run refused before it started (the executor's input-phase errors). */
const REFUSAL_STATUS: Record<string, ApiStatus> = {
  "invalid-input": 422,
  "invalid-context": 422,
  "input-too-large": 413,
  "nothing-to-resume": 409,
  "thread-busy": 409,
  "thread-graph-mismatch": 409,
  "graph-outside-project": 409,
  "checkpoint-not-found": 404,
  "policy-denied": 403,
  policy_denied: 403,
};

/** A run the executor refused before anything ran, as the HTTP error it is. */
export function refusalError(error: RunError): ApiError {
  return new ApiError(REFUSAL_STATUS[error.code] ?? 422, error.code, error.message, {
    ...(error.field ? { field: error.field } : {}),
    ...(error.hint ? { hint: error.hint } : {}),
  });
}

export const notFound = (what: string, id: string, hint?: string): ApiError =>
  new ApiError(404, `${what}-not-found`, `there is no ${what} \`${id}\``, hint ? { hint } : {});

/** A request or run that comes while this server stops: another replica, or this one once back, takes it. */
export const serverStopping = (): ApiError =>
  new ApiError(
    503,
    "server-stopping",
    "this server is stopping: it takes no new requests or runs",
    {
      hint: "ask again: another replica, or this server once it is back, will answer",
    },
  );
