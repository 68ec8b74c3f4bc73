/**
 * Watches the specs of a graphs directory and every file their versions were built from (chokidar),
 * and reloads the graphs a change touches — the changed spec and every graph that mounts it or
 * uses the changed module — through the executor's registry. Changes that arrive close together
 * (an editor's several writes for one save, a `git checkout`) are gathered into one batch; batches
 * run one after another, so a build never races an older one of the same change.
 */
import { statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { type FSWatcher, watch } from "chokidar";
import type { GraphRegistry } from "../run/graph-registry.js";
import { BESIDE_SPECS } from "../spec/beside-specs.js";
import { diagnosticsOf, messageOf, type ReloadEvent } from "./reload-event.js";

const SPEC_EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/**
 * How long the files must be quiet before a batch is built. Editors save in one write (VS Code) or
 * in a write and a rename (vim, JetBrains "safe write"): chokidar's `atomic` folds the rename into
 * one change; the few milliseconds left gather a multi-file save. bench/reload measures the sum.
 */
export const DEFAULT_DEBOUNCE_MS = 15;

const isSpec = (dir: string, path: string) =>
  resolve(path, "..") === dir &&
  SPEC_EXTENSIONS.has(extname(path).toLowerCase()) &&
  // Fixtures and recordings live beside the specs; they are not graphs.
  !BESIDE_SPECS.test(path);

/** After chokidar's 50 ms window for a file's `change` events (see lookAgain). */
const RECHECK_MS = 75;

/** What a file is now, cheaply: a change of content changes its size, mtime or ctime (nanoseconds on Linux). */
function stampOf(path: string): string {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return "missing";
  }
}

export async function specsIn(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .map((n) => join(dir, n))
    .filter((p) => isSpec(dir, p))
    .sort();
}

export interface GraphWatcher {
  /** Resolves when every spec was loaded once and the watcher is watching. */
  ready: Promise<void>;
  /** Resolves when no batch is waiting or building (tests wait on it, rather than on time). */
  idle(): Promise<void>;
  /** Builds a spec again as if its file had changed (an MCP server it needs came back). */
  rebuild(path: string): void;
  close(): Promise<void>;
}

export function watchGraphs<T>(
  dir: string,
  registry: GraphRegistry<T>,
  onEvent: (event: ReloadEvent) => void,
  debounceMs = DEFAULT_DEBOUNCE_MS,
): GraphWatcher {
  let watcher: FSWatcher | undefined;
  const changed = new Set<string>();
  let firstSeen = 0;
  let timer: NodeJS.Timeout | undefined;
  let building: Promise<void> = Promise.resolve();
  let closed = false;

  const reported = (
    path: string,
    outcome: Awaited<ReturnType<GraphRegistry<T>["reload"]>>,
    files: string[],
    since: number,
  ) => {
    if (outcome.ok === true)
      onEvent({
        type: "reloaded",
        path,
        version: outcome.graph.version,
        changed: files,
        ms: performance.now() - since,
      });
    else if (outcome.ok === false)
      onEvent({
        type: "rejected",
        path,
        changed: files,
        message: messageOf(outcome.error),
        diagnostics: diagnosticsOf(outcome.error),
        ...(outcome.kept ? { kept: outcome.kept.version } : {}),
      });
  };

  /** Watches what the graphs' newest versions (and latest attempts) were built from. */
  const watched = new Set<string>();
  const watchFiles = () => {
    // Only new files: adding a watched one again re-creates its watch, and a change can slip between.
    const files = registry.paths().flatMap((p) => [...registry.filesOf(p)]);
    const fresh = files.filter((f) => !watched.has(f));
    for (const f of fresh) {
      watched.add(f);
      // chokidar sets a watch up after `add` returns: a file created or saved meanwhile (the prompt
      // file a refused spec names, written right after the refusal) has no event. Looked at again.
      builtFrom.set(f, stampOf(f));
      lookAgain(f);
    }
    if (fresh.length) watcher?.add(fresh);
  };

  const build = async (files: string[], since: number) => {
    const graphs = new Set(files.flatMap((f) => registry.dependents(f)));
    // A new spec in the graphs directory is a new graph.
    for (const f of files) if (isSpec(dir, f)) graphs.add(f);
    await Promise.all(
      [...graphs].map(async (path) => reported(path, await registry.reload(path), files, since)),
    );
    watchFiles();
  };

  const flush = () => {
    timer = undefined;
    const files = [...changed];
    const since = firstSeen;
    changed.clear();
    for (const f of files) {
      const stamp = stampOf(f);
      builtFrom.set(f, stamp);
      taken.set(f, stamp);
    }
    // A batch that throws (it should not: reload never does) must not stop the ones after it.
    building = building
      .then(() => (closed ? undefined : build(files, since)))
      .catch((error: unknown) =>
        onEvent({
          type: "rejected",
          path: dir,
          changed: files,
          message: messageOf(error),
          diagnostics: [],
        }),
      );
  };

  const seen = (path: string) => {
    if (!changed.size) firstSeen = performance.now();
    changed.add(resolve(path));
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };

  /**
   * chokidar passes on one `change` per file per 50 ms and drops the rest without a trailing event,
   * so a save soon after another would be lost (the reload proof lost one in three runs). Each file
   * is looked at again once its window has passed: changed since its batch was taken, it is a change.
   */
  const builtFrom = new Map<string, string>();
  /**
   * What each file was when a batch last took it. On a loaded machine chokidar's event can come
   * after the look again took its change into a batch: the file as a batch took it is no new
   * change (built again, it made a version of its own — the reload proof saw 12 versions for 11).
   */
  const taken = new Map<string, string>();
  const recheck = new Map<string, NodeJS.Timeout>();
  const lookAgain = (path: string) => {
    const abs = resolve(path);
    clearTimeout(recheck.get(abs));
    recheck.set(
      abs,
      setTimeout(() => {
        recheck.delete(abs);
        if (!closed && !changed.has(abs) && stampOf(abs) !== builtFrom.get(abs)) seen(abs);
      }, RECHECK_MS),
    );
  };

  const ready = (async () => {
    const specs = await specsIn(dir);
    await Promise.all(
      specs.map(async (path) => reported(path, await registry.reload(path), [], performance.now())),
    );
    const files = [dir, ...registry.paths().flatMap((p) => [...registry.filesOf(p)])];
    for (const f of files) watched.add(f);
    watcher = watch(files, { ignoreInitial: true, atomic: true });
    watcher.on("all", (_event, path) => {
      if (stampOf(path) !== taken.get(resolve(path))) seen(path);
      lookAgain(path);
    });
    await new Promise<void>((r) => watcher?.once("ready", () => r()));
    onEvent({ type: "ready", graphs: specs });
  })();

  return {
    ready,
    rebuild: (path) => {
      if (!closed) seen(path);
    },
    async idle() {
      for (;;) {
        const current = building;
        await current;
        if (!timer && !recheck.size && current === building) return;
        if (timer || recheck.size) await new Promise((r) => setTimeout(r, debounceMs));
      }
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const t of recheck.values()) clearTimeout(t);
      await ready.catch(() => {});
      await watcher?.close();
      await building;
    },
  };
}
