/**
 * Importing user modules into this process (TypeScript through tsx), once per run, and summarizing
 * their load errors. compile() and run use this: they are about to run the code anyway. Validate
 * never does (it parses, or loads in a separate process: isolated/).
 */
import { extname, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { exportFacts } from "./export-facts.js";
import type { ModuleInspector, ModuleReport } from "./module-report.js";
import type { Shared } from "./shared.js";

const TYPESCRIPT = new Set([".ts", ".mts", ".cts"]);

export type LoadedModule =
  | { ok: true; exports: Record<string, unknown> }
  | { ok: false; error: unknown };

type TsApi = { import: (specifier: string, parentURL: string) => Promise<unknown> };
let tsApi: Promise<TsApi> | undefined;
/**
 * One tsx registration for the process, loaded only when a spec references TypeScript. Each call of
 * tsx's `tsImport` registers a loader of its own with a new namespace, and so imports a new copy of
 * every module the file imports — LangChain included: about two seconds per executor (each test of
 * `graphspec test` opens one), and a tool built by one copy of `@langchain/core` handed to another.
 * Under one namespace a TypeScript module is cached by its URL as a JavaScript one is.
 */
export const typescript = (): Promise<TsApi> => {
  tsApi ??= (async () => {
    const [esm, cjs] = await Promise.all([import("tsx/esm/api"), import("tsx/cjs/api")]);
    // A `.ts` file outside a `"type": "module"` package is CommonJS, and on Node 24 the ESM hooks
    // hand it to the CommonJS loader, which finds no file named `….ts?namespace=graphspec` unless
    // tsx's CommonJS hooks know the namespace too (tsImport registers both, as here).
    cjs.register({ namespace: "graphspec" });
    return esm.register({ namespace: "graphspec" }) as unknown as TsApi;
  })();
  return tsApi;
};

/** Imports a module by its URL (a query makes a new version: module-versions.ts), TypeScript through tsx. */
export async function importUrl(abs: string, url: string): Promise<Record<string, unknown>> {
  if (TYPESCRIPT.has(extname(abs).toLowerCase()))
    return (await (await typescript()).import(url, import.meta.url)) as Record<string, unknown>;
  return (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
}

export const importModule = (abs: string): Promise<Record<string, unknown>> =>
  importUrl(abs, pathToFileURL(abs).href);

/** Where `loadModule` keeps a module in a shared cache: a caller may put a version of its own there first (module-versions.ts). */
export const moduleCacheKey = (abs: string): string => `graphspec:module:${abs}`;

/**
 * Imports a module once per shared cache (tsx's `tsImport` would otherwise load a TypeScript module
 * afresh each time). Never throws: a module that fails to load gives its error.
 */
export function loadModule(abs: string, shared: Shared): Promise<LoadedModule> {
  return shared(moduleCacheKey(abs), () =>
    importModule(abs).then(
      (exports): LoadedModule => ({ ok: true, exports }),
      (error: unknown): LoadedModule => ({ ok: false, error }),
    ),
  );
}

/** The first meaningful line of a load error, with absolute paths shortened: no stack trace. */
export function loadErrorSummary(error: unknown, abs: string, ref: string, root: string): string {
  const e = error as { name?: unknown; message?: unknown } | null | undefined;
  const name = typeof e?.name === "string" ? e.name : "";
  const text = typeof e?.message === "string" ? e.message : String(error);
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  // esbuild: "Transform failed with 1 error:" then "<file>:1:25: ERROR: Unexpected ...".
  let line = lines[0] ?? "";
  if (line.endsWith(":") && lines[1]) line = lines[1];
  line = line
    .replaceAll(pathToFileURL(abs).href, ref)
    .replaceAll(abs, ref)
    .replaceAll(pathToFileURL(root).href + "/", "")
    .replaceAll(root + sep, "")
    .replace(": ERROR: ", ": ");
  if (line.length > 240) line = `${line.slice(0, 239)}…`;
  return name && name !== "Error" && !line.startsWith(name) ? `${name}: ${line}` : line;
}

export function loadErrorHint(error: unknown): string | undefined {
  const text = String((error as { message?: unknown } | undefined)?.message ?? "");
  const pkg = /Cannot find package '([^']+)'/.exec(text)?.[1];
  return pkg ? `install it: \`npm install ${pkg}\`` : undefined;
}

/** The report of a module that failed to load, with its error summarized per reference. */
export function loadFailure(
  error: unknown,
  abs: string,
  root: string,
): Extract<ModuleReport, { ok: false }> {
  return {
    ok: false,
    describe(ref) {
      const hint = loadErrorHint(error);
      return {
        message: `module \`${ref}\` failed to load: ${loadErrorSummary(error, abs, ref, root)}`,
        ...(hint ? { hint } : {}),
      };
    },
  };
}

/** Inspects a module by importing it into this process: the values themselves, for compile's check. */
export const inProcessInspector: ModuleInspector = async (abs, root, shared) => {
  const loaded = await loadModule(abs, shared);
  if (!loaded.ok) return loadFailure(loaded.error, abs, root);
  const namespace = loaded.exports;
  return {
    ok: true,
    exports: {
      names: Object.keys(namespace),
      complete: true,
      facts: (name) =>
        shared(`graphspec:facts:${abs}\0${name}`, () =>
          Object.hasOwn(namespace, name)
            ? exportFacts(namespace[name], abs)
            : Promise.resolve(undefined),
        ),
    },
  };
};
