/**
 * LangGraph runs a graph's steps on promises alone. A step with no I/O in it — `set` nodes, CEL
 * routes, the memory or SQLite checkpointer (better-sqlite3 is synchronous) — never hands the
 * event loop a turn, so in a loop of such steps nothing else runs: not a deadline's timer, not
 * Ctrl-C, not a server's other requests (a 134 s loop ignored `--deadline 2s` and two Ctrl-C).
 * Each node therefore gives the event loop a turn before it runs when it has not had one for a
 * while; the cost is one `setImmediate` per `MAX_MS_WITHOUT_TURN` of busy running.
 */
const MAX_MS_WITHOUT_TURN = 20;

let lastTurn = performance.now();

/** Resolves at once, or after the event loop has had a turn when it is due one. */
export function eventLoopTurn(): Promise<void> | undefined {
  if (performance.now() - lastTurn < MAX_MS_WITHOUT_TURN) return undefined;
  return new Promise<void>((resolve) =>
    setImmediate(() => {
      lastTurn = performance.now();
      resolve();
    }),
  );
}
