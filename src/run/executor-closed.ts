/** The error of an executor used after `close()`; a file of its own so the package entry can export it without loading LangGraph. */

/** Thrown by an executor's calls once its `close()` has begun. */
export class ExecutorClosedError extends Error {
  override readonly name = "ExecutorClosedError";
  readonly hint =
    "create another executor (createExecutor) to go on; close() waits for the calls already in flight, then releases the checkpointer";
  constructor(call: string) {
    super(`${call}: this executor is closed`);
  }
}
