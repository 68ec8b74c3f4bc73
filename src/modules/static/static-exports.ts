/**
 * A module's export names found by parsing: its own, and those it passes on with `export * from`
 * (or a CommonJS `module.exports = require(…)`), followed into other files of the project under
 * the same rules as the spec's own references — inside the project root, symbolic links resolved —
 * and within bounds. Nothing is run. What cannot be followed (a package, a file outside the
 * project, a computed `module.exports`) leaves the list incomplete, so a missing name is then not
 * called missing.
 */
import { readFile, stat } from "node:fs/promises";
import { dirname, extname, isAbsolute, join, resolve } from "node:path";
import { isInside } from "../../spec/inside-root.js";
import { MODULE_EXTENSIONS, realpathLoose } from "../files.js";
import type { ModuleInspector, ModuleReport } from "../module-report.js";
import type { Shared } from "../shared.js";
import { readModuleSyntax, type SyntaxResult } from "./module-syntax.js";

/** Bounds on following re-exports, so a hostile or generated module tree cannot make validate slow. */
export const STATIC_LIMITS = {
  /** Files read for one module, itself included. */
  maxFiles: 64,
  /** Re-export hops from the module named in the spec. */
  maxDepth: 16,
  /** Bytes of one file; a bigger one (a bundle) is not read. */
  maxBytes: 2 * 1024 * 1024,
};

/** A specifier ending in a JavaScript extension may name the TypeScript file (as tsx resolves it). */
const TS_TWIN: Record<string, string> = { ".js": ".ts", ".mjs": ".mts", ".cjs": ".cts" };

type FileSyntax = SyntaxResult | { unreadable: true };

/** The `type` of the nearest package.json above `dir`, as Node.js decides a `.js` file's format. */
function packageType(dir: string, shared: Shared): Promise<string | undefined> {
  return shared(`graphspec:package-type:${dir}`, async () => {
    try {
      const pkg: unknown = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
      return typeof pkg === "object" &&
        pkg !== null &&
        "type" in pkg &&
        typeof pkg.type === "string"
        ? pkg.type
        : "commonjs";
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") return "commonjs";
      const parent = dirname(dir);
      return parent === dir ? undefined : packageType(parent, shared);
    }
  });
}

async function isCommonJs(abs: string, shared: Shared): Promise<boolean> {
  const ext = extname(abs).toLowerCase();
  if (ext === ".cjs" || ext === ".cts") return true;
  if (ext === ".mjs" || ext === ".mts") return false;
  return (await packageType(dirname(abs), shared)) !== "module";
}

/** Reads and lexes one file once per shared cache. */
export function syntaxOf(abs: string, shared: Shared): Promise<FileSyntax> {
  return shared(`graphspec:syntax:${abs}`, async (): Promise<FileSyntax> => {
    try {
      const info = await stat(abs);
      if (!info.isFile() || info.size > STATIC_LIMITS.maxBytes) return { unreadable: true };
      const text = await readFile(abs, "utf8");
      return await readModuleSyntax(text, abs, await isCommonJs(abs, shared));
    } catch {
      return { unreadable: true };
    }
  });
}

const isFile = (path: string) =>
  stat(path).then(
    (s) => s.isFile(),
    () => false,
  );

/** The file a relative specifier names, if it is one inside the project; packages are not followed. */
export async function resolveLocal(
  specifier: string,
  from: string,
  realRoot: string,
): Promise<string | undefined> {
  if (!/^\.{1,2}\//.test(specifier) && !isAbsolute(specifier)) return undefined;
  const base = resolve(dirname(from), specifier);
  const ext = extname(base).toLowerCase();
  const candidates = [base];
  const twin = TS_TWIN[ext];
  if (twin) candidates.push(base.slice(0, -ext.length) + twin);
  if (!(MODULE_EXTENSIONS as readonly string[]).includes(ext)) {
    for (const e of MODULE_EXTENSIONS) candidates.push(base + e);
    for (const e of MODULE_EXTENSIONS) candidates.push(resolve(base, `index${e}`));
  }
  for (const candidate of candidates) {
    if (!(await isFile(candidate))) continue;
    return isInside(realRoot, await realpathLoose(candidate)) ? candidate : undefined;
  }
  return undefined;
}

async function inspect(abs: string, root: string, shared: Shared): Promise<ModuleReport> {
  const top = await syntaxOf(abs, shared);
  if ("syntaxError" in top) {
    const error = top.syntaxError;
    return {
      ok: false,
      describe: (ref) => ({
        message: `module \`${ref}\` does not parse: ${error}`,
        hint: "fix the syntax error: the module cannot be loaded as it is",
      }),
    };
  }
  if ("unreadable" in top) return { ok: true, exports: { names: [], complete: false } };
  const names = new Set(top.names);
  let complete = !top.dynamic;
  const realRoot = await realpathLoose(root);
  const seen = new Set([abs]);
  const queue = top.stars.map((specifier) => ({ specifier, from: abs, depth: 1 }));
  while (queue.length) {
    const { specifier, from, depth } = queue.shift()!;
    const target = await resolveLocal(specifier, from, realRoot);
    if (!target) {
      complete = false;
      continue;
    }
    if (seen.has(target)) continue;
    seen.add(target);
    if (depth > STATIC_LIMITS.maxDepth || seen.size > STATIC_LIMITS.maxFiles) {
      complete = false;
      continue;
    }
    const syntax = await syntaxOf(target, shared);
    if (!("names" in syntax)) {
      complete = false;
      continue;
    }
    // `export *` passes on every name but `default`.
    for (const name of syntax.names) if (name !== "default") names.add(name);
    if (syntax.dynamic) complete = false;
    for (const next of syntax.stars)
      queue.push({ specifier: next, from: target, depth: depth + 1 });
  }
  return { ok: true, exports: { names: [...names], complete } };
}

/** Inspects a module by parsing it and the files it re-exports from: nothing of it runs. */
export const staticInspector: ModuleInspector = (abs, root, shared) =>
  shared(`graphspec:static:${root}\0${abs}`, () => inspect(abs, root, shared));
