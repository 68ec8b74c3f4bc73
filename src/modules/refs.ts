/** The file references a spec makes: `{ module, export }` refs and subgraph `graph:` refs. */
import { catalogOf } from "../spec/catalog.js";
import { isObject } from "../spec/data.js";
import type { SpecDocument } from "../spec/document.js";
import type { PathProbes } from "../spec/path-probes.js";
import type { Path } from "../spec/source-map.js";

/** What a module reference is for; it decides the default export and the shape the export must have. */
export type RefKind = "tool" | "function" | "router" | "reducer";

/** Where references are resolved from. */
export interface RefBase {
  /** Absolute path of the spec file; references are relative to its directory. */
  specPath: string;
  /** The project root no reference may leave. */
  root: string;
  /** `specPath` is the catalog a tool came from (its module is relative to the catalog): hints say so. */
  fromCatalog?: boolean;
  /** The run's answers about folders and module files, shared by its specs (default: asked anew). */
  probes?: PathProbes | undefined;
}

/** Why a reference does not resolve, as a diagnostic to report at `path`. */
export interface RefProblem {
  rule: "path-escape" | "unknown-module" | "unknown-export";
  /** Where to report, in the spec data. */
  path: Path;
  at?: "key" | "value";
  message: string;
  hint?: string;
  /** The name a did-you-mean hint suggests, in place of the value at `path` (`Diagnostic.replacement`). */
  replacement?: string;
}

/** A `{ module, export }` reference found in a spec. */
export interface ModuleRef {
  kind: RefKind;
  module: string;
  export?: string;
  /** The path of the `module` value; `export` stands beside it. */
  path: Path;
  /** The file `module` is relative to when it is not the spec: the catalog a tool came from. */
  from?: string;
  /** For tools: the tool's name, and whether the spec gives what a plain function needs. */
  tool?: { name: string; hasSchema: boolean; hasDescription: boolean };
}

/** A subgraph node's `graph:` reference. */
export interface GraphRef {
  node: string;
  graph: string;
  /** The path of the `graph` value. */
  path: Path;
}

const entries = (v: unknown): [string, Record<string, unknown>][] =>
  isObject(v)
    ? Object.entries(v).filter((e): e is [string, Record<string, unknown>] => isObject(e[1]))
    : [];

const exportOf = (o: Record<string, unknown>): { export?: string } =>
  typeof o.export === "string" ? { export: o.export } : {};

/** Every `{ module, export }` reference in the spec data; tolerates partial shapes. */
export function moduleRefs(spec: unknown): ModuleRef[] {
  if (!isObject(spec)) return [];
  const refs: ModuleRef[] = [];
  for (const [name, tool] of entries(spec.tools)) {
    if (typeof tool.module !== "string") continue;
    refs.push({
      kind: "tool",
      module: tool.module,
      ...exportOf(tool),
      ...(catalogOf(tool) ? { from: catalogOf(tool) } : {}),
      path: ["tools", name, "module"],
      tool: {
        name,
        hasSchema: tool.schema !== undefined,
        hasDescription: typeof tool.description === "string",
      },
    });
  }
  for (const [name, node] of entries(spec.nodes)) {
    if (node.kind === "function" && typeof node.module === "string")
      refs.push({
        kind: "function",
        module: node.module,
        ...exportOf(node),
        path: ["nodes", name, "module"],
      });
  }
  if (Array.isArray(spec.edges)) {
    spec.edges.forEach((edge, i) => {
      const router = isObject(edge) ? edge.router : undefined;
      if (isObject(router) && typeof router.module === "string")
        refs.push({
          kind: "router",
          module: router.module,
          ...exportOf(router),
          path: ["edges", i, "router", "module"],
        });
    });
  }
  for (const [name, field] of entries(spec.state)) {
    const reducer = field.reducer;
    if (isObject(reducer) && typeof reducer.module === "string")
      refs.push({
        kind: "reducer",
        module: reducer.module,
        ...exportOf(reducer),
        path: ["state", name, "reducer", "module"],
      });
  }
  return refs;
}

/** Every subgraph node's `graph:` reference in the spec data; tolerates partial shapes. */
export function graphRefs(spec: unknown): GraphRef[] {
  if (!isObject(spec)) return [];
  return entries(spec.nodes)
    .filter(([, node]) => node.kind === "subgraph" && typeof node.graph === "string")
    .map(([name, node]) => ({
      node: name,
      graph: node.graph as string,
      path: ["nodes", name, "graph"],
    }));
}

/**
 * The project catalog a spec takes tools and models from (absolute path), when it names one: a
 * file the spec depends on like its modules (a watcher reloads the spec when it changes).
 */
export const catalogFile = (doc: SpecDocument): string | undefined => doc.catalog?.doc.path;
