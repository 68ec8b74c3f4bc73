/**
 * The graphs a server offers, one assistant per spec in its graphs folder: id, name, description
 * and the JSON Schemas of input, output, state and context, read from the spec. The server looks
 * graphs up only through this interface, so where specs come from (a folder read on demand here,
 * the development loop's reloading registry in `graphspec dev`) is not its concern.
 */
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, extname, join, resolve } from "node:path";
import { graphJsonSchemas } from "../json-schema/graph-schemas.js";
import { GRAPH_EXTENSIONS } from "../modules/files.js";
import { BESIDE_SPECS } from "../spec/beside-specs.js";
import { loadSpec } from "../spec/load.js";
import { findProjectRoot } from "../spec/project-root.js";
import type { GraphSpec } from "../spec/spec-types.generated.js";
import type { ServedStatus } from "./assistant-metadata.js";
import { runConfigSchema } from "./run-config-schema.js";

export interface GraphEntry {
  /** A UUID derived from the graph's name, as the LangGraph server derives its assistants' ids. */
  assistantId: string;
  /** The spec's `name`: the graph id. */
  name: string;
  description: string | undefined;
  /** The spec file, as the executor runs it. */
  path: string;
  spec: GraphSpec;
  /** graphspec dev: the version that serves and a refused change sitting in the file. */
  status?: ServedStatus;
}

export interface GraphCatalog {
  list(): Promise<GraphEntry[]>;
  /** A graph by assistant id or by name. */
  find(idOrName: string): Promise<GraphEntry | undefined>;
  /** The project the specs are in: errors show paths under it relative to it. */
  readonly root?: string;
}

/** The LangGraph server's namespace for graph ids (its assistants are uuid5(graph_id, this)). */
const GRAPH_NAMESPACE = "6ba7b821-9dad-11d1-80b4-00c04fd430c8";

/** RFC 4122 version 5 UUID: SHA-1 of namespace and name. */
export function uuid5(name: string, namespace = GRAPH_NAMESPACE): string {
  const ns = Buffer.from(namespace.replaceAll("-", ""), "hex");
  const hash = createHash("sha1").update(ns).update(name, "utf8").digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface FolderCatalogOptions {
  /**
   * The spec a file serves now, when something other than the file decides (graphspec dev: the
   * newest good version, while a refused change sits in the file). Undefined: read the file.
   */
  served?: (path: string) => GraphSpec | undefined;
  /**
   * graphspec dev: where the spec file stands (served version, refused change), shown in the
   * assistant's `version`, `updated_at` and `metadata.graphspec`. With it, a refused file that does
   * not even parse is still listed, under its file's stem (docs/dev.md "The page").
   */
  status?: (path: string) => ServedStatus | undefined;
}

/** A refused spec file that does not load, listed by its stem with no nodes: diagnostics only. */
function unparsedEntry(path: string): GraphEntry {
  const name = basename(path, extname(path));
  return {
    assistantId: uuid5(name),
    name,
    description: undefined,
    path,
    spec: { version: 1, name, state: {}, nodes: {}, edges: [] } as unknown as GraphSpec,
  };
}

const entryFrom = (path: string, spec: GraphSpec | undefined): GraphEntry | undefined =>
  spec && typeof spec.name === "string"
    ? { assistantId: uuid5(spec.name), name: spec.name, description: spec.description, path, spec }
    : undefined;

/**
 * The spec files a folder serves, absolute and sorted: those directly in `dir` (a subfolder holds
 * subgraphs a spec mounts, not graphs of its own), fixtures (`*.test.yaml`) and recordings
 * (`*.recording.json`) excluded. The one
 * discovery of `serve`, `dev` and `graphspec graphs`.
 */
export async function graphFilesIn(dir: string): Promise<string[]> {
  const root = resolve(dir);
  const names = await readdir(root, { withFileTypes: true }).catch(() => []);
  return names
    .filter((n) => !n.isDirectory())
    .map((n) => n.name)
    .filter((n) => GRAPH_EXTENSIONS.includes(extname(n).toLowerCase() as never))
    .filter((n) => !BESIDE_SPECS.test(n))
    .sort()
    .map((n) => join(root, n));
}

/**
 * `graphFilesIn(root)`, read again only when the folder has changed: a file added, removed or
 * renamed changes the folder's mtime, so one stat stands for a readdir on every request. A
 * listing is trusted only once the folder's mtime is older than the listing by more than the
 * file system's timestamp granularity (as git's "racily clean" entries): a change in the same
 * tick as the listing, which would leave the mtime equal, is never missed.
 */
function filesOf(root: string): () => Promise<string[]> {
  let known: { mtimeMs: number; listedAt: number; files: string[] } | undefined;
  return async () => {
    const mtimeMs = mtimeOf(root);
    if (
      known &&
      mtimeMs !== undefined &&
      known.mtimeMs === mtimeMs &&
      mtimeMs < known.listedAt - SETTLED_MS
    )
      return known.files;
    const listedAt = Date.now();
    const files = await graphFilesIn(root);
    known = mtimeMs === undefined ? undefined : { mtimeMs, listedAt, files };
    return files;
  };
}

/**
 * A file's mtime, or undefined when it is gone. Synchronous: a lookup stats the folder and each
 * spec on every request, and a cached stat is a microsecond here, against ten and more through
 * the thread pool (fs/promises) — which was most of what finding a graph cost.
 */
function mtimeOf(path: string): number | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs;
  } catch {
    return undefined;
  }
}

/** More than any file system's mtime granularity (ext4, tmpfs: a clock tick; FAT: 2 s). */
const SETTLED_MS = 2000;

/** The specs directly in `dir` (fixtures, `*.test.yaml`, are not graphs), re-read when a file changes. */
export function folderCatalog(dir: string, options: FolderCatalogOptions = {}): GraphCatalog {
  const root = resolve(dir);
  const cache = new Map<string, { mtimeMs: number; entry: GraphEntry | undefined }>();
  const entryOf = async (path: string): Promise<GraphEntry | undefined> => {
    const status = options.status?.(path);
    const entry = await specEntryOf(path);
    if (!status) return entry;
    // The name is inside a file that does not parse: its stem is what the person calls it.
    return { ...(entry ?? unparsedEntry(path)), status };
  };
  const specEntryOf = async (path: string): Promise<GraphEntry | undefined> => {
    const served = options.served?.(path);
    if (served) return entryFrom(path, served);
    const mtimeMs = mtimeOf(path);
    // Gone since the folder was listed: no assistant (as the failed stat said before).
    if (mtimeMs === undefined) throw new Error(`${path} is gone`);
    const known = cache.get(path);
    if (known && known.mtimeMs === mtimeMs) return known.entry;
    // A spec that does not load is no assistant (running it would say why); it is tried again when it changes.
    const spec = await loadSpec(path).then(
      (doc) => doc.data as GraphSpec,
      () => undefined,
    );
    const entry = entryFrom(path, spec);
    cache.set(path, { mtimeMs, entry });
    return entry;
  };
  const files = filesOf(root);
  const list = async (): Promise<GraphEntry[]> => {
    const entries = await Promise.all(
      (await files()).map((path) => entryOf(path).catch(() => undefined)),
    );
    return entries.filter((e): e is GraphEntry => e !== undefined);
  };
  return {
    list,
    root: findProjectRoot(root),
    async find(idOrName) {
      return (await list()).find((g) => g.assistantId === idOrName || g.name === idOrName);
    },
  };
}

/** The JSON Schemas of a graph's input, output, state and context, as the spec declares them. */
export function graphSchemas(
  g: GraphEntry,
  /** The tools of its subgraphs, for `config_schema` (run-config-schema.ts's subgraphTools). */
  subgraphToolNames: readonly string[] = [],
): Record<string, unknown> {
  const schemas = graphJsonSchemas(g.spec);
  return {
    graph_id: g.name,
    input_schema: schemas.input,
    output_schema: schemas.output,
    state_schema: schemas.state,
    context_schema: schemas.context,
    config_schema: runConfigSchema(g.spec, subgraphToolNames),
  };
}
