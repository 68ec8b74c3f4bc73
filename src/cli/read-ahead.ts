/**
 * Reading the spec files of one `validate` run ahead of checking them: while one spec is checked,
 * the next few are read and parsed, so the process does not sit idle waiting for each file in
 * turn. The specs still come out one at a time, in the order of the files, so findings are
 * reported exactly as if each file were read when its turn came.
 */
import { resolve } from "node:path";
import type { SpecDocument } from "../spec/document.js";
import { readSpec } from "../spec/load.js";
import type { PathProbes } from "../spec/path-probes.js";

/**
 * Files read at once. A few keep Node's file-system threads (4 by default) busy; more would only
 * hold more parsed specs in memory, and thousands at once would open thousands of files.
 */
export const READ_AHEAD = 8;

/**
 * The specs at `files` (as the user named them, relative to `cwd`), in order, with at most
 * `limit` files being read at any moment.
 */
export async function* readSpecsAhead(
  files: readonly string[],
  cwd: string,
  probes: PathProbes,
  limit = READ_AHEAD,
): AsyncGenerator<SpecDocument> {
  yield* inOrder(files, limit, (file) => readSpec(resolve(cwd, file), { file, probes }));
}

/** `map` over `items` with at most `limit` calls unfinished, yielding the results in order. */
export async function* inOrder<T, R>(
  items: readonly T[],
  limit: number,
  map: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const pending: Promise<R>[] = [];
  let next = 0;
  const fill = () => {
    while (next < items.length && pending.length < Math.max(1, limit)) {
      const started = map(items[next++]!);
      // Awaited in its turn below; until then a failure must not count as unhandled.
      started.catch(() => {});
      pending.push(started);
    }
  };
  fill();
  while (pending.length) {
    const result = await pending.shift()!;
    fill();
    yield result;
  }
}
