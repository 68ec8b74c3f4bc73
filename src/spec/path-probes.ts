/**
 * Questions about the file system that every file of one validate run asks again — which folder
 * is the project root, where a folder really is once symbolic links are followed, whether a
 * module file exists — answered once per run. Validating 1,000 specs of one folder otherwise
 * probes the same folders and module files thousands of times.
 *
 * One instance lives for one run (the CLI's `validate` makes one): the answers are not watched,
 * so a long-lived process (an executor, the dev server) must not keep one across reloads.
 */
import { existsSync, type Stats } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { basename, dirname, join, parse as parsePath } from "node:path";

/** What makes a folder the project root (see project-root.ts, which asks the same uncached). */
const MARKERS = ["package.json", ".git", "graphspec.config.json"];

/**
 * realpath of the longest existing prefix of `path`, with the rest appended: symlinked folders
 * count even when the file is missing. `realpathOf` answers undefined for a path that does not exist.
 */
export async function realpathLoose(
  path: string,
  realpathOf: (path: string) => Promise<string | undefined> = (p) =>
    realpath(p).catch(() => undefined),
): Promise<string> {
  const real = await realpathOf(path);
  if (real !== undefined) return real;
  const parent = dirname(path);
  return parent === path ? path : join(await realpathLoose(parent, realpathOf), basename(path));
}

export class PathProbes {
  private readonly marked = new Map<string, string | undefined>();
  private readonly reals = new Map<string, Promise<string | undefined>>();
  private readonly stats = new Map<string, Promise<Stats | undefined>>();

  /** The nearest ancestor of `dir` (or `dir`) that holds a project marker; undefined when none does. */
  markedRoot(dir: string): string | undefined {
    if (this.marked.has(dir)) return this.marked.get(dir);
    const found = MARKERS.some((m) => existsSync(join(dir, m)))
      ? dir
      : dir === parsePath(dir).root
        ? undefined
        : this.markedRoot(dirname(dir));
    this.marked.set(dir, found);
    return found;
  }

  /** The nearest ancestor of `dir` (or `dir`) with a project marker, or `dir` itself. */
  projectRoot(dir: string): string {
    return this.markedRoot(dir) ?? dir;
  }

  /** `realpath(path)`, or undefined when it does not exist (or cannot be resolved). */
  realpath(path: string): Promise<string | undefined> {
    let found = this.reals.get(path);
    if (!found) {
      found = realpath(path).catch(() => undefined);
      this.reals.set(path, found);
    }
    return found;
  }

  /** `realpathLoose(path)` with this run's cached realpaths. */
  realpathLoose(path: string): Promise<string> {
    return realpathLoose(path, (p) => this.realpath(p));
  }

  /** `stat(path)`, or undefined when it fails. */
  stat(path: string): Promise<Stats | undefined> {
    let found = this.stats.get(path);
    if (!found) {
      found = stat(path).catch(() => undefined);
      this.stats.set(path, found);
    }
    return found;
  }
}
