/**
 * Executors a test file opens, closed when the file ends: an open SQLite database (or PostgreSQL
 * pool) must not be left to the process's exit.
 */
import { afterAll } from "vitest";

/** Call at the top of a file; wrap each executor the file makes in what it returns. */
export function closeAfterAll(): <T extends { close(): Promise<void> }>(opened: T) => T {
  const open: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const o of open.splice(0)) await o.close();
  });
  return (opened) => {
    open.push(opened);
    return opened;
  };
}
