/**
 * The graphs an executor runs, by spec path, each as its newest good version: the compiled graph
 * (whatever `build` makes of it) and the files it was built from. A run takes one version when it
 * starts and keeps it to its end; `reload` builds a graph again and, when the build succeeds, makes
 * it the version new runs get — one assignment, so no run sees half of a swap. A build that fails
 * leaves the last good version in place and returns the error (with its diagnostics).
 */
import { type ModuleVersions, moduleCacheKey, moduleVersions } from "../modules/index.js";
import { graphFiles } from "./graph-files.js";

export interface GraphVersion<T> {
  path: string;
  /** 1 for the first good build of this path, then one more for each good rebuild. */
  version: number;
  value: T;
  /** The files it was built from: spec, modules, subgraph specs (graph-files.ts), and any extra. */
  files: ReadonlySet<string>;
}

export type ReloadOutcome<T> =
  | { ok: true; graph: GraphVersion<T> }
  /** The build failed; `kept` is the version still served, if there was one. */
  | { ok: false; path: string; error: unknown; kept?: GraphVersion<T> }
  /** A newer reload of the same path finished first; this one changed nothing. */
  | { ok: "superseded"; path: string };

export interface GraphRegistryOptions<T> {
  /** The project root references may not leave. */
  root: string;
  /** Builds a graph from its spec; `cache` is what compile shares (modules, child specs). */
  build: (path: string, cache: Map<string, unknown>) => Promise<T>;
  /** Files a graph depends on beyond its references (a shared catalog): they join its set. */
  extraFiles?: (path: string) => Iterable<string>;
  /**
   * Built to be reloaded (graphspec dev): each build records its files and loads a changed module
   * under a new URL (module-versions.ts). Without it a module loads once per process and every
   * graph shares the one cache, as an executor always did.
   */
  reload?: boolean;
}

export interface GraphRegistry<T> {
  /** The newest good version; built the first time. Throws what the build threw if there is none. */
  get(path: string): Promise<GraphVersion<T>>;
  /** Builds the graph again; a good build becomes the newest version. Never throws. */
  reload(path: string): Promise<ReloadOutcome<T>>;
  /** The version new runs of `path` get now, if it has had a good build. */
  current(path: string): GraphVersion<T> | undefined;
  /** Every graph asked for so far (good or not), by spec path. */
  paths(): string[];
  /** The files a graph's newest good version and its latest attempt were built from. */
  filesOf(path: string): Set<string>;
  /** The graphs whose files include `file` (a spec that mounts a changed child is one of them). */
  dependents(file: string): string[];
  /** Module versions held (with `reload`): the bound on what reloads keep in memory. */
  readonly moduleVersionCount: number;
}

interface Entry<T> {
  current?: GraphVersion<T>;
  /** The first build, while there is no version yet: concurrent first runs share it. */
  first?: Promise<GraphVersion<T>>;
  attempted: Set<string>;
  started: number;
  installed: number;
}

export function graphRegistry<T>(options: GraphRegistryOptions<T>): GraphRegistry<T> {
  const entries = new Map<string, Entry<T>>();
  const shared = new Map<string, unknown>();
  const versions: ModuleVersions | undefined = options.reload ? moduleVersions() : undefined;

  const entryOf = (path: string): Entry<T> => {
    let entry = entries.get(path);
    if (!entry) {
      entry = { attempted: new Set([path]), started: 0, installed: 0 };
      entries.set(path, entry);
    }
    return entry;
  };

  /** Builds `path` once; installs the result if no newer build was installed meanwhile. */
  const build = async (path: string): Promise<ReloadOutcome<T>> => {
    const entry = entryOf(path);
    const attempt = ++entry.started;
    try {
      const found = versions
        ? await graphFiles(path, options.root)
        : { files: new Set([path]), modules: new Set<string>() };
      for (const f of options.extraFiles?.(path) ?? []) found.files.add(f);
      entry.attempted = found.files;
      let cache = shared;
      if (versions) {
        // A fresh cache per build: child specs are read again, and each module is the version its file holds now.
        cache = new Map();
        for (const abs of found.modules) cache.set(moduleCacheKey(abs), versions.load(abs));
      }
      const value = await options.build(path, cache);
      if (attempt < entry.installed) return { ok: "superseded", path };
      const graph: GraphVersion<T> = {
        path,
        version: (entry.current?.version ?? 0) + 1,
        value,
        files: found.files,
      };
      entry.installed = attempt;
      entry.current = graph;
      return { ok: true, graph };
    } catch (error) {
      return { ok: false, path, error, ...(entry.current ? { kept: entry.current } : {}) };
    }
  };

  return {
    get(path) {
      const entry = entryOf(path);
      if (entry.current) return Promise.resolve(entry.current);
      if (!entry.first) {
        const first = build(path).then((outcome) => {
          if (outcome.ok === true) return outcome.graph;
          if (entry.current) return entry.current;
          throw outcome.ok === false ? outcome.error : new Error(`${path} was not built`);
        });
        entry.first = first;
        // A spec that failed to load or compile is tried again next time (it may have been fixed).
        first.then(
          () => {
            entry.first = undefined;
          },
          () => {
            entry.first = undefined;
          },
        );
      }
      return entry.first;
    },
    reload: (path) => build(path),
    current: (path) => entries.get(path)?.current,
    paths: () => [...entries.keys()],
    filesOf(path) {
      const entry = entries.get(path);
      return new Set([...(entry?.current?.files ?? []), ...(entry?.attempted ?? [])]);
    },
    dependents(file) {
      return [...entries.keys()].filter((p) => p === file || this.filesOf(p).has(file));
    },
    get moduleVersionCount() {
      return versions?.size ?? 0;
    },
  };
}
