/**
 * The specs of a project that mount a given spec as a subgraph: a child's channel is named in
 * its parents too (their `input` keys, `output.X`, and by name when they copy it), so its
 * references and renames reach them. Found by walking the project's folders for YAML and JSON
 * files that name the child's file and a `subgraph`, then resolving their `graph:` as validate does.
 */
import { readdir, readFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { graphRefs, resolveGraphRef } from "../modules/index.js";
import type { SpecDocument } from "../spec/document.js";

/** Folders never walked: dependencies, build output, version control and other dot-folders. */
const SKIPPED = new Set(["node_modules", "dist", "build", "coverage"]);
/** A walk stops after this many files: a guard against a project root that is a home folder. */
const MAX_FILES = 20_000;

/** Every YAML or JSON file under `root`, depth-first, at most MAX_FILES. */
export async function specFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const stack = [root];
  let seen = 0;
  while (stack.length && seen < MAX_FILES) {
    const dir = stack.pop()!;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      seen++;
      if (e.name.startsWith(".")) continue;
      if (e.isDirectory()) {
        if (!SKIPPED.has(e.name)) stack.push(join(dir, e.name));
      } else if (e.isFile() && /\.(ya?ml|json)$/.test(e.name)) out.push(join(dir, e.name));
    }
  }
  return out;
}

export interface Mount {
  parent: SpecDocument;
  /** The parent's subgraph node that mounts the child. */
  node: string;
}

/** The subgraph nodes of the project's specs (`files`, from specFiles) that mount `child`. */
export async function mountsOf(
  child: SpecDocument,
  files: readonly string[],
  load: (abs: string) => Promise<SpecDocument | undefined>,
): Promise<Mount[]> {
  const target = resolve(child.path);
  const name = basename(target);
  const out: Mount[] = [];
  for (const file of files) {
    if (file === target) continue;
    // Most files name no subgraph, or not this one: not parsed.
    const text = await readFile(file, "utf8").catch(() => "");
    if (!text.includes("subgraph") || !text.includes(name)) continue;
    const parent = await load(file);
    if (!parent) continue;
    for (const ref of graphRefs(parent.data)) {
      const found = await resolveGraphRef({ specPath: file, root: parent.root }, ref);
      if (found.abs === target) out.push({ parent, node: ref.node });
    }
  }
  return out;
}
