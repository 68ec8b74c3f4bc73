/**
 * Loaded into the soak's `graphspec serve` (`node --expose-gc --import` this file, by
 * serve-process.ts): on SIGWINCH it runs a full garbage collection and appends the process's
 * `memoryUsage()` after it, as one JSON line, to the file GRAPHSPEC_SOAK_HEAP_FILE names. What is
 * left on the heap after a full collection is what the server retains; its resident size also
 * holds garbage not yet collected and pages V8 and the allocator keep for later, which a busy
 * server does not give back (docs/testing.md). SIGWINCH: ignored by default and by `serve`, and
 * never sent to a server but by a terminal it does not have.
 */
import { appendFileSync } from "node:fs";

const file = process.env.GRAPHSPEC_SOAK_HEAP_FILE;
if (file && typeof globalThis.gc === "function") {
  const gc = globalThis.gc;
  process.on("SIGWINCH", () => {
    gc();
    appendFileSync(file, `${JSON.stringify(process.memoryUsage())}\n`);
  });
}
