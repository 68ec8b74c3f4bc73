/**
 * The files one version of a graph is built from: its spec, the modules it references (tools,
 * functions, routers, reducers), the catalog it takes tools and models from, its prompt files
 * (`system: { file: ... }`), and, through subgraph
 * nodes, each child spec and its files. A
 * change to any of them makes a new version (dev/watch.ts). Tolerant: a spec that does not parse
 * gives what it can, so the file that would fix it is still watched.
 */
import { dirname, resolve } from "node:path";
import { resolveFile } from "../modules/files.js";
import { catalogFile, graphRefs, moduleRefs } from "../modules/refs.js";
import { resolveModuleFile } from "../modules/resolve.js";
import { isInside } from "../spec/inside-root.js";
import { readSpec } from "../spec/load.js";
import { promptFileRefs } from "../spec/prompt-files.js";

/** Subgraph chains deeper than this are not followed (the checker refuses cycles anyway). */
const MAX_DEPTH = 32;

export interface GraphFiles {
  /** Every file: specs, modules and prompt files, absolute. */
  files: Set<string>;
  /** The module files among them. */
  modules: Set<string>;
}

export async function graphFiles(specPath: string, root: string): Promise<GraphFiles> {
  const files = new Set<string>();
  const modules = new Set<string>();
  /** A reference that does not resolve yet is watched too: creating the file is the fix. */
  const missing = (spec: string, ref: string) => {
    const abs = resolve(dirname(spec), ref);
    if (isInside(root, abs)) files.add(abs);
  };
  const visit = async (abs: string, depth: number): Promise<void> => {
    if (files.has(abs) || depth > MAX_DEPTH) return;
    files.add(abs);
    const doc = await readSpec(abs, { root });
    if (doc.data === undefined) return;
    // Watched even when it does not parse or is missing: fixing or creating it is the change.
    const catalog = catalogFile(doc);
    if (catalog) files.add(catalog);
    else {
      const named = (doc.data as { catalog?: unknown } | null)?.catalog;
      if (typeof named === "string") missing(abs, named);
    }
    // Prompt files read, and those not (yet) there: creating one is the fix.
    for (const p of doc.prompts ?? []) if (isInside(root, p.abs)) files.add(p.abs);
    for (const { ref } of promptFileRefs(doc.data)) missing(abs, ref);
    for (const ref of moduleRefs(doc.data)) {
      const file = await resolveModuleFile({ specPath: abs, root }, ref);
      if (file.ok) {
        files.add(file.abs);
        modules.add(file.abs);
      } else missing(ref.from ?? abs, ref.module);
    }
    for (const ref of graphRefs(doc.data)) {
      const file = await resolveFile({ specPath: abs, root }, ref.graph, "graph", ref.path);
      if (file.ok) await visit(file.abs, depth + 1);
      else missing(abs, ref.graph);
    }
  };
  await visit(specPath, 0);
  return { files, modules };
}
