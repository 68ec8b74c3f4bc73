/**
 * What `graphspec export langgraph` writes, as text: `langgraph.json` (the official server's
 * config), the entry module whose exports build each graph from its spec when the server loads it,
 * and a package.json that depends on graphspec. Pure: the command decides where and whether to write.
 */
import { relative, sep } from "node:path";

/** One graph to export: its name (the graph id) and its spec file (absolute). */
export interface ExportedGraph {
  name: string;
  path: string;
}

export const ENTRY_MODULE = "graphs.mjs";

/** Words an exported binding may not be named (ES reserved words and strict-mode restrictions). */
const RESERVED = new Set(
  `await break case catch class const continue debugger default delete do else enum eval export
  extends false finally for function if implements import in instanceof interface let new null
  package private protected public return static super switch this throw true try typeof var void
  while with yield arguments`.split(/\s+/),
);

/**
 * The export name of each graph: its name with `-` as `_` (graph names are `[a-z][a-z0-9_-]*`), a
 * reserved word or a name taken by another graph given a suffix. The graph id stays the name.
 */
export function exportNames(names: readonly string[]): Map<string, string> {
  const taken = new Set<string>();
  const result = new Map<string, string>();
  for (const name of names) {
    const base = name.replaceAll("-", "_");
    let id = RESERVED.has(base) ? `${base}_graph` : base;
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
    taken.add(id);
    result.set(name, id);
  }
  return result;
}

/** A path from the entry module's folder, in URL form (`./x`, `../graphs/y.yaml`). */
export const fromOut = (outDir: string, path: string): string => {
  const rel = relative(outDir, path).split(sep).join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
};

export function langgraphJson(
  graphs: readonly ExportedGraph[],
  ids: ReadonlyMap<string, string>,
  options: { envFile?: string | undefined; auth?: string | undefined },
): string {
  const config = {
    node_version: "24",
    dependencies: ["."],
    graphs: Object.fromEntries(graphs.map((g) => [g.name, `./${ENTRY_MODULE}:${ids.get(g.name)}`])),
    ...(options.envFile ? { env: options.envFile } : {}),
    ...(options.auth ? { auth: { path: options.auth } } : {}),
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

export function entryModule(
  graphs: readonly ExportedGraph[],
  ids: ReadonlyMap<string, string>,
  outDir: string,
): string {
  const lines = [
    "// Written by `graphspec export langgraph`: run it again after adding or renaming a graph.",
    "// Each export is a factory the LangGraph server calls with a run's config; the graph is",
    "// compiled from its spec (relative to this file) when the server loads this module. Offline,",
    "// scripted:NAME models answer from GRAPHSPEC_SCRIPTS (JSON, or @file). docs/deploy.md",
    'import { platformGraph } from "graphspec";',
    "",
    ...graphs.map(
      (g) =>
        `export const ${ids.get(g.name)} = await platformGraph(new URL(${JSON.stringify(fromOut(outDir, g.path))}, import.meta.url));`,
    ),
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * The export's package: graphspec, and LangGraph itself — the server resolves
 * `@langchain/langgraph` from the project, so the graphs and the server share one copy.
 */
export function packageJson(graphspecVersion: string, langgraphRange: string): string {
  const pkg = {
    name: "graphspec-langgraph-export",
    private: true,
    type: "module",
    dependencies: { "@langchain/langgraph": langgraphRange, graphspec: `^${graphspecVersion}` },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}
