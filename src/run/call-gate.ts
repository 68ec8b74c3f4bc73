/**
 * The calls in flight on an executor, so that `close()` waits for them before it releases the
 * checkpointer — a run still going would otherwise write to a closed database, or open it again
 * and leave it open — and refuses the calls that come after.
 */
import { ExecutorClosedError } from "./executor-closed.js";

export interface CallGate {
  /** `f()`, counted in flight until its promise settles; refused once the gate is closing. */
  call<T>(name: string, f: () => Promise<T>): Promise<T>;
  /** `f()`'s events, counted in flight from the first `next()` until the stream ends or is returned. */
  stream<T>(name: string, f: () => AsyncGenerator<T>): AsyncGenerator<T>;
  /** Refuses new calls; settles once none is in flight. */
  drain(): Promise<void>;
}

export function callGate(): CallGate {
  let closing = false;
  let inFlight = 0;
  let drained: Promise<void> | undefined;
  let idle: (() => void) | undefined;
  const enter = (name: string) => {
    if (closing) throw new ExecutorClosedError(name);
    inFlight++;
  };
  const leave = () => {
    inFlight--;
    if (inFlight === 0) idle?.();
  };
  return {
    async call(name, f) {
      enter(name);
      try {
        return await f();
      } finally {
        leave();
      }
    },
    async *stream(name, f) {
      enter(name);
      try {
        yield* f();
      } finally {
        leave();
      }
    },
    drain() {
      closing = true;
      drained ??= inFlight === 0 ? Promise.resolve() : new Promise<void>((r) => (idle = r));
      return drained;
    },
  };
}

/** Each of `calls` through the gate: `stream` as a stream, the others as calls. */
export function gatedCalls<T extends object>(calls: T, gate: CallGate): T {
  const gated: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(calls) as [string, (...a: unknown[]) => never][]) {
    gated[name] =
      name === "stream"
        ? (...a: unknown[]) => gate.stream(name, () => f(...a))
        : (...a: unknown[]) => gate.call(name, () => f(...a));
  }
  return gated as T;
}
