/**
 * What `run`, `resume` and `stream` must be given, checked before anything loads: a graph (a name
 * or a spec path) and, where there is one, a thread id that is not empty. A caller's mistake is
 * thrown as a RunArgumentError with a hint — never a TypeError from deep inside, never an empty
 * thread id read as "no thread" (a silent new thread).
 */

export class RunArgumentError extends Error {
  override readonly name = "RunArgumentError";
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

type Method = "run" | "resume" | "stream";

/** Throws RunArgumentError when `graph` or `options` cannot be run. */
export function checkRunArguments(method: Method, graph: unknown, options: unknown): void {
  if (typeof graph !== "string" || !graph.trim()) {
    throw new RunArgumentError(
      `${method}(): the graph is missing (${graph === undefined ? "undefined" : JSON.stringify(graph)}): give a graph name or a spec path`,
      "pass the graph as the first argument, e.g. `support-triage` or `graphs/support-triage.yaml`; `exec.graphOf(threadId)` gives the graph a thread ran",
    );
  }
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new RunArgumentError(
      `${method}(): the options must be an object, not ${JSON.stringify(options)}`,
      "pass `{ threadId, … }`",
    );
  }
  const threadId = (options as { threadId?: unknown } | undefined)?.threadId;
  if (method === "resume" && threadId === undefined) {
    throw new RunArgumentError(
      "resume(): `threadId` is missing: a resume continues a thread",
      "pass `{ threadId, value }`: the thread id a paused or stopped run returned",
    );
  }
  if (threadId === undefined) return;
  if (typeof threadId !== "string") {
    throw new RunArgumentError(
      `${method}(): \`threadId\` must be a string, not ${JSON.stringify(threadId) ?? typeof threadId}`,
      "pass the thread id a run returned, or leave it out to start a new thread",
    );
  }
  if (!threadId.trim()) {
    throw new RunArgumentError(
      `${method}(): the thread id is empty`,
      method === "resume"
        ? "pass the thread id the paused or stopped run returned"
        : "leave `threadId` out to start a new thread, or pass the id of the thread to continue",
    );
  }
}
