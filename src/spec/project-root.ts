import { existsSync } from "node:fs";
import { dirname, join, parse as parsePath } from "node:path";

const MARKERS = ["package.json", ".git", "graphspec.config.json"];

/** The nearest ancestor of `dir` (or `dir`) that holds a project marker, or `dir` itself. */
export function findProjectRoot(dir: string): string {
  return findMarkedRoot(dir) ?? dir;
}

/** The nearest ancestor of `dir` (or `dir`) that holds a project marker; undefined when none does. */
export function findMarkedRoot(dir: string): string | undefined {
  let current = dir;
  const top = parsePath(dir).root;
  for (;;) {
    if (MARKERS.some((m) => existsSync(join(current, m)))) return current;
    if (current === top) return undefined;
    current = dirname(current);
  }
}
