/** The RunResult a run's event stream ends with (its final event's). */
import type { RunEvent, RunResult } from "../../src/index.js";

export async function streamResult(events: AsyncIterable<RunEvent>): Promise<RunResult> {
  for await (const e of events) if ("result" in e) return e.result as RunResult;
  throw new Error("the stream ended without a result");
}
