/**
 * Loads dist/cli/validate.cjs — `graphspec validate`'s ~150 modules and the packages they use
 * (yaml, Ajv, cel-js, …; esbuild, a native program, stays outside) as one script — with V8's code
 * cache (code-cache.ts). Node resolving, reading and compiling some 330 files was most of what a
 * one-file validate cost on Node 20; one script compiled from cache is a fraction of it.
 *
 * The script is a CommonJS module run with `node:vm` (only a script can take cached data and give
 * it back after running, with the code of every function that ran). Its first line is
 * `// graphspec validate script <hash>`, the hash of its content that names its cache entry.
 * Node maps stack traces through source maps (`--enable-source-maps`) only for code its own
 * loaders compiled: with source maps on, the script is `require`d instead, and traces name
 * src/*.ts (through validate.cjs.map and tsc's maps).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Script } from "node:vm";
import { codeCache } from "./code-cache.js";
import type { Io } from "./io.js";

export interface ValidateScript {
  allowWideFanOut(): void;
  main(argv: string[], io?: Io): Promise<number>;
  /** Stores V8's code of what ran for the next start, when it was not already cached. */
  saveCodeCache(): void;
}

const SCRIPT = fileURLToPath(new URL("./validate.cjs", import.meta.url));
const require = createRequire(SCRIPT);
// One line, so that the script's own lines keep their numbers (stack traces, its source map).
const WRAPPER = "(function (exports, require, module, __filename, __dirname) { ";

export function loadValidateScript(): ValidateScript {
  if (process.sourceMapsEnabled) return { ...require(SCRIPT), saveCodeCache: () => {} };
  const source = readFileSync(SCRIPT, "utf8");
  const hash = /^\/\/ graphspec validate script ([0-9a-f]+)\n/.exec(source)?.[1];
  const cache = codeCache(hash);
  const script = new Script(`${WRAPPER}${source}\n})`, {
    filename: SCRIPT,
    cachedData: cache.data,
  });
  const module = { exports: {} as Omit<ValidateScript, "saveCodeCache"> };
  script.runInThisContext()(module.exports, require, module, SCRIPT, dirname(SCRIPT));
  const stale = cache.data === undefined || script.cachedDataRejected === true;
  return {
    ...module.exports,
    saveCodeCache: () => {
      if (stale) cache.save(script.createCachedData());
    },
  };
}
