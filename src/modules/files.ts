/** Resolving a file reference: inside the project root (symlinks followed), existing, of a supported kind. */
import { readdir } from "node:fs/promises";
import { basename, dirname, extname, isAbsolute, relative, resolve, sep } from "node:path";
import { closest, type Suggestion } from "../diagnostics/suggest.js";
import { isInside } from "../spec/inside-root.js";
import { PathProbes, realpathLoose } from "../spec/path-probes.js";
import { findMarkedRoot } from "../spec/project-root.js";
import type { Path } from "../spec/source-map.js";
import type { RefBase, RefProblem } from "./refs.js";

export { realpathLoose };

export const MODULE_EXTENSIONS = [".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"] as const;
export const GRAPH_EXTENSIONS = [".yaml", ".yml", ".json"] as const;

/** A code module, or a child spec mounted by a subgraph node. */
export type FileKind = "module" | "graph";

export type ResolvedFile = { ok: true; abs: string } | { ok: false; problem: RefProblem };

const extensionsOf = (kind: FileKind): readonly string[] =>
  kind === "module" ? MODULE_EXTENSIONS : GRAPH_EXTENSIONS;

/** The reference with its last segment replaced, as the user would write it. */
const withBase = (ref: string, name: string): string =>
  ref.slice(0, Math.max(ref.lastIndexOf("/"), ref.lastIndexOf("\\")) + 1) + name;

/** The file a reference is relative to, as the hints name it. */
const relativeTo = (base: RefBase): string => (base.fromCatalog ? "catalog" : "spec");

async function missingFileHint(
  base: RefBase,
  abs: string,
  ref: string,
  kind: FileKind,
): Promise<string | Suggestion | undefined> {
  let names: string[];
  try {
    names = await readdir(dirname(abs));
  } catch {
    const dir = withBase(ref, "").replace(/[/\\]$/, "");
    return dir ? `there is no directory \`${dir}\`` : undefined;
  }
  const exts = extensionsOf(kind);
  const candidates = names.filter((n) => exts.includes(extname(n).toLowerCase())).sort();
  const stem = basename(abs, extname(abs));
  const near =
    candidates.find((n) => basename(n, extname(n)) === stem) ?? closest(basename(abs), candidates);
  if (near) {
    const meant = withBase(ref, near);
    return { hint: `did you mean \`${meant}\`?`, replacement: meant };
  }
  if (kind === "module" && !/^\.{0,2}[/\\]/.test(ref) && !isAbsolute(ref))
    return `paths are relative to the ${relativeTo(base)} file (\`./tools.ts\`); to use a package's export, re-export it from a module of yours`;
  return undefined;
}

const MARKERS = "a package.json, .git or graphspec.config.json";

/** A folder as the spec's author sees it: relative to the spec's folder, with a trailing slash. */
const fromSpec = (specDir: string, folder: string): string => {
  const rel = relative(specDir, folder).split(sep).join("/");
  return `${rel || "."}/`;
};

/**
 * Where the project root is, and what sets it: the nearest folder up from the spec with one of
 * the markers. Without any, the root is the spec's own folder — the usual surprise — so the hint
 * names the folder that holds both the spec and the file, and the marker to put there.
 */
function rootAdvice(base: RefBase, abs: string): { where: string; hint: string } {
  const specDir = dirname(base.specPath);
  const marked = findMarkedRoot(specDir) !== undefined;
  const where = `\`${fromSpec(specDir, base.root)}\``;
  if (marked) {
    return {
      where,
      hint: `the project root is the nearest folder up from the spec with ${MARKERS}: move the file into it and refer to it by a path relative to the ${relativeTo(base)} file`,
    };
  }
  let common = base.root;
  while (!isInside(common, abs) && dirname(common) !== common) common = dirname(common);
  return {
    where: `${where} (the spec's own folder)`,
    hint: `the project root is the nearest folder up from the spec with ${MARKERS}, and none was found above the spec: add a graphspec.config.json (\`{}\`) to the folder that holds both, \`${fromSpec(specDir, common)}\` from the spec (or move the file into the spec's folder)`,
  };
}

/** Resolves a file reference: inside the project root (symlinks followed), existing, of a supported kind. */
export async function resolveFile(
  base: RefBase,
  ref: string,
  kind: FileKind,
  at: Path,
): Promise<ResolvedFile> {
  const noun = kind === "module" ? "module" : "graph";
  const fail = (
    rule: RefProblem["rule"],
    message: string,
    hint?: string | Suggestion,
  ): ResolvedFile => ({
    ok: false,
    problem: {
      rule,
      path: at,
      message,
      ...(typeof hint === "object" ? hint : hint ? { hint } : {}),
    },
  });
  const abs = resolve(dirname(base.specPath), ref);
  // Every spec of a run names the same few modules under one root: probe them once per run.
  const probes = base.probes ?? new PathProbes();
  const realRoot = await probes.realpathLoose(base.root);
  if (!isInside(base.root, abs) && !isInside(realRoot, abs)) {
    const { where, hint } = rootAdvice(base, abs);
    return fail("path-escape", `${noun} \`${ref}\` is outside the project root ${where}`, hint);
  }
  if (!isInside(realRoot, await probes.realpathLoose(abs))) {
    return fail(
      "path-escape",
      `${noun} \`${ref}\` leads through a symbolic link to a file outside the project root`,
      "copy the file into the project instead of linking to it",
    );
  }
  const info = await probes.stat(abs);
  if (!info) {
    return fail(
      "unknown-module",
      `${noun} \`${ref}\` does not exist`,
      await missingFileHint(base, abs, ref, kind),
    );
  }
  if (!info.isFile()) {
    return fail("unknown-module", `${noun} \`${ref}\` is a directory`, "name a file in it");
  }
  const exts = extensionsOf(kind);
  if (!exts.includes(extname(abs).toLowerCase())) {
    return fail(
      "unknown-module",
      kind === "module"
        ? `module \`${ref}\` is not a JavaScript or TypeScript module`
        : `graph \`${ref}\` is not a spec file`,
      `use a ${exts.join(", ").replace(/, ([^,]*)$/, " or $1")} file`,
    );
  }
  return { ok: true, abs };
}
