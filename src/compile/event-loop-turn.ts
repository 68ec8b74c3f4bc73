/**
 * LangGraph runs a graph's steps on promises alone. A step with no I/O in it — `set` nodes, CEL
 * routes, the memory or SQLite checkpointer (better-sqlite3 is synchronous) — never hands the
 * event loop a turn, so in a loop of such steps nothing else runs: not a deadline's timer, not
 * Ctrl-C (a 134 s loop ignored `--deadline 2s` and two Ctrl-C).
 *
 * So while the executor runs a graph (it is what has a deadline and a cancel to see), each node
 * gives the event loop a turn before it runs when it has not had one for a while; the cost is one
 * `setImmediate` per `MAX_MS_WITHOUT_TURN` of busy running. A graph invoked directly runs as
 * LangGraph runs a hand-written one, with no turns added: a turn lets V8's pending garbage
 * collection tasks run, and their time then lands on the graph that took it — measured from
 * outside, that made a spec's graph invoked alternately with a hand-written one 1.3–1.4x slower
 * (bench/overhead.mjs).
 */
const MAX_MS_WITHOUT_TURN = 20;

let lastTurn = performance.now();
/** How many runs want turns now (the executor's, while they run). */
let wanting = 0;

/** Nodes give the event loop turns until the returned function is called (once). */
export function wantEventLoopTurns(): () => void {
  wanting++;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    wanting--;
  };
}

/** Resolves at once (undefined), or after the event loop has had a turn when it is due one. */
export function eventLoopTurn(): Promise<void> | undefined {
  if (wanting === 0 || performance.now() - lastTurn < MAX_MS_WITHOUT_TURN) return undefined;
  return new Promise<void>((resolve) =>
    setImmediate(() => {
      lastTurn = performance.now();
      resolve();
    }),
  );
}
